import type * as nri from '../api/nri.js';

/**
 * An annotation scoped the NRI way: `KEY/container.NAME` for one container,
 * then `KEY/pod` for the whole pod, then plain `KEY`. Read from the pod's
 * annotations (where kubelet puts them), then the container's.
 */
export function effectiveAnnotation(pod: Pick<nri.PodSandbox, 'annotations'> | null, key: string, containerName: string, container?: Pick<nri.Container, 'annotations'> | null): string | undefined {
  for (const a of [pod?.annotations ?? {}, container?.annotations ?? {}]) {
    const v = a[`${key}/container.${containerName}`] ?? a[`${key}/pod`] ?? a[key];
    if (v !== undefined) return v;
  }
  return undefined;
}
