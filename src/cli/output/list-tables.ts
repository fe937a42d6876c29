// The `pods` and `ps` tables' columns and rows, one definition for the full CLI's commands and the
// fast path (src/fast/), so the two print the same bytes (test/integration/cli-fast-path.test.ts).
import type * as cri from '../../api/cri.js';
import { containerStateText, podNameFromLabels, podNamespaceFromLabels, podStateText, truncateId } from '../filters.js';
import { ago } from './units.js';

export const PODS_HEADER = ['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME'];

export function podRow(p: cri.PodSandbox, noTrunc: boolean): string[] {
  return [
    noTrunc ? p.id : truncateId(p.id),
    ago(p.createdAt),
    podStateText(p.state),
    p.metadata?.name ?? '',
    p.metadata?.namespace ?? '',
    String(p.metadata?.attempt ?? 0),
    p.runtimeHandler || '(default)',
  ];
}

/** crictl 1.34's `ps` columns (NAMESPACE is new in 1.34). */
export const CONTAINERS_HEADER = ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'];

/** `image` is the IMAGE column as the caller shows it (truncated, or resolved to a repo tag). */
export function containerRow(c: cri.Container, noTrunc: boolean, image: string): string[] {
  return [
    noTrunc ? c.id : truncateId(c.id),
    image,
    ago(c.createdAt),
    containerStateText(c.state),
    c.metadata?.name ?? '',
    String(c.metadata?.attempt ?? 0),
    noTrunc ? c.podSandboxId : truncateId(c.podSandboxId),
    podNameFromLabels(c.labels),
    podNamespaceFromLabels(c.labels),
  ];
}
