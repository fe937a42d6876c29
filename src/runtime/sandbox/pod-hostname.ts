// A pod's hostname. As in containerd: a pod without one gets the node's hostname in
// /etc/hostname and $HOSTNAME, and its spec names none (runc then leaves the new UTS namespace
// with the node's name). The metadata name is never used: CRI clients make it long
// (critest's `PodSandbox-for-…-<uuid>`), and the kernel takes at most 64 bytes.
//
// An explicit hostname is handed to the kernel as it is, as containerd does: kubelet sends FQDNs
// (setHostnameAsFQDN: `<pod>.<subdomain>.<namespace>.svc.<cluster domain>`, ending in a dot when
// no cluster domain is set), and sethostname(2) takes any bytes up to 64. Only what the kernel
// would refuse is refused, and a NUL, which no C string (pinns' argv, runc's sethostname) carries.
import { hostname as nodeHostname } from 'node:os';
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';

/** The kernel's limit in bytes (__NEW_UTS_LEN); kubelet's setHostnameAsFQDN allows the same. */
export const MAX_HOSTNAME_BYTES = 64;

/** Throws InvalidArgument unless the kernel takes `name` as a hostname. */
export function checkHostname(name: string): void {
  const problem = hostnameProblem(name);
  if (problem) throw invalidArgument(`pod hostname ${JSON.stringify(name)} is invalid: ${problem}`);
}

/** Why sethostname(2) would not take `name`, or undefined when it would. */
export function hostnameProblem(name: string): string | undefined {
  const bytes = Buffer.byteLength(name);
  if (bytes > MAX_HOSTNAME_BYTES) return `${bytes} bytes, the kernel takes at most ${MAX_HOSTNAME_BYTES}`;
  if (name.includes('\0')) return 'it contains a NUL byte';
  return undefined;
}

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/i;

/** Whether `name` is dot-separated RFC 1123 labels of at most 63 characters (64 in all): a name DNS takes. */
export function isDnsHostname(name: string): boolean {
  return name.length <= MAX_HOSTNAME_BYTES && name.split('.').every((label) => label.length <= 63 && DNS_LABEL.test(label));
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
