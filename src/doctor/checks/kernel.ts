// Kernel features the engine needs: overlayfs for image layers, the
// namespaces runc unshares, and seccomp for the default profile.
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface KernelFacts {
  /** /proc/filesystems */
  filesystems: string;
  /** overlay.ko present for `modprobe overlay` when not built in or loaded. */
  overlayModule: boolean;
  /** Entries of /proc/self/ns. */
  namespaces: string[];
  /** /proc/self/status */
  procStatus: string;
}

const NEEDED_NAMESPACES = ['mnt', 'uts', 'ipc', 'pid', 'net', 'cgroup'];

export function evaluateKernel(f: KernelFacts): CheckResult[] {
  const out: CheckResult[] = [];
  const hasOverlay = /\boverlay$/m.test(f.filesystems);
  if (hasOverlay) out.push(ok('kernel.overlay', 'overlayfs', 'listed in /proc/filesystems'));
  else if (f.overlayModule) out.push(warn('kernel.overlay', 'overlayfs', 'not loaded; the module exists and loads on first mount', 'modprobe overlay'));
  else out.push(fail('kernel.overlay', 'overlayfs', 'not in /proc/filesystems and no overlay module', 'use a kernel with CONFIG_OVERLAY_FS'));

  const missing = NEEDED_NAMESPACES.filter((n) => !f.namespaces.includes(n));
  out.push(missing.length === 0
    ? ok('kernel.namespaces', 'namespaces', NEEDED_NAMESPACES.join(' '))
    : fail('kernel.namespaces', 'namespaces', `missing ${missing.join(', ')} in /proc/self/ns`, `use a kernel with CONFIG_${missing.map((m) => m.toUpperCase()).join('_NS, CONFIG_')}_NS`));

  const seccomp = /^Seccomp:\s*(\d+)/m.exec(f.procStatus);
  out.push(seccomp
    ? ok('kernel.seccomp', 'seccomp', `supported (mode ${seccomp[1]} here)`)
    : warn('kernel.seccomp', 'seccomp', 'no Seccomp line in /proc/self/status', 'use a kernel with CONFIG_SECCOMP for the default seccomp profile'));
  return out;
}
