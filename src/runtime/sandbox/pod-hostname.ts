// A pod's hostname. As in containerd: a pod without one gets the node's hostname in
// /etc/hostname and $HOSTNAME, and its spec names none (runc then leaves the new UTS namespace
// with the node's name). The metadata name is never used: CRI clients make it long
// (critest's `PodSandbox-for-…-<uuid>`), and the kernel takes at most 64 bytes.
import { hostname as nodeHostname } from 'node:os';
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';

/** The kernel's limit (__NEW_UTS_LEN); kubelet's setHostnameAsFQDN allows the same. */
export const MAX_HOSTNAME_LENGTH = 64;
const MAX_LABEL_LENGTH = 63;
const LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;

/** Throws InvalidArgument unless `name` is a hostname the kernel and DNS both accept: dot-separated labels. */
export function checkHostname(name: string): void {
  const problem = hostnameProblem(name);
  if (problem) throw invalidArgument(`pod hostname "${name}" is invalid: ${problem}`);
}

/** Why `name` cannot be a hostname, or undefined when it can. */
export function hostnameProblem(name: string): string | undefined {
  if (name.length > MAX_HOSTNAME_LENGTH) return `${name.length} characters, at most ${MAX_HOSTNAME_LENGTH} allowed`;
  for (const label of name.split('.')) {
    if (label.length > MAX_LABEL_LENGTH) return `label "${label}" has ${label.length} characters, at most ${MAX_LABEL_LENGTH} allowed`;
    if (!LABEL.test(label)) return 'each dot-separated label must be letters, digits and inner hyphens (an RFC 1123 DNS label)';
  }
  return undefined;
}

export interface PodHostname {
  /** What /etc/hostname, $HOSTNAME and /etc/hosts show. */
  name: string;
  /** Whether the pod's spec sets it (sethostname in its own UTS namespace). */
  setInSpec: boolean;
}

/** The pod's hostname: its config's (checked), or the node's for host-network pods and pods without one. */
export function podHostname(config: cri.PodSandboxConfigIn, hostNetwork: boolean): PodHostname {
  const asked = config.hostname ?? '';
  // A host-network pod shares the node's UTS namespace: whatever it asks for is not applied.
  if (hostNetwork || asked === '') return { name: nodeHostname(), setInSpec: false };
  checkHostname(asked);
  return { name: asked, setInSpec: true };
}
