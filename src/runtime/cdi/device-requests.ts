// The CDI devices a container asks for: the CRI field (kubelet's device
// plugins and DRA) first, then the `cdi.k8s.io/*` annotations (older kubelets:
// each value a comma-separated list of names), without repeats, as containerd
// merges them. A malformed name is the caller's error.
import { invalidArgument } from '../errors.js';
import type * as cri from '../../api/cri.js';
import { parseQualifiedName } from './qualified-name.js';

export const CDI_ANNOTATION_PREFIX = 'cdi.k8s.io/';
/** More than a node has accelerators; keeps one config from resolving thousands of names. */
export const MAX_CDI_DEVICES_PER_CONTAINER = 128;

export function requestedCdiDevices(config: Pick<cri.ContainerConfigIn, 'CDIDevices' | 'annotations'>): string[] {
  const out: string[] = [];
  const add = (name: string, from: string) => {
    const parsed = parseQualifiedName(name);
    if ('error' in parsed) throw invalidArgument(`CDI device from ${from}: ${parsed.error}`);
    if (!out.includes(name)) out.push(name);
  };
  for (const d of config.CDIDevices ?? []) add(d?.name ?? '', 'CDI_devices');
  for (const [key, value] of Object.entries(config.annotations ?? {})) {
    if (!key.startsWith(CDI_ANNOTATION_PREFIX)) continue;
    for (const name of String(value).split(',')) add(name, `annotation ${key}`);
  }
  if (out.length > MAX_CDI_DEVICES_PER_CONTAINER) throw invalidArgument(`${out.length} CDI devices requested; at most ${MAX_CDI_DEVICES_PER_CONTAINER} per container`);
  return out;
}
