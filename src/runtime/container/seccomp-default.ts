// Builds the RuntimeDefault seccomp profile for one container from the allow-list in
// seccomp-default-data.ts, as containerd 1.7 builds its default: the syscalls every container
// may make, those the container's bounding capabilities unlock, and, without CAP_SYS_ADMIN, clone
// only without namespace flags and clone3 answered ENOSYS. Everything else is EPERM.
import { arch as hostArch, release } from 'node:os';
import {
  ARCH_ALLOWED, ARCHITECTURES, BASE_ALLOWED, CAPABILITY_ALLOWED, CLONE_NAMESPACE_FLAGS, cloneFlagsIndex,
  CONDITIONAL_ALLOWED, enosys, EPERM, KERNEL_4_8_ALLOWED, type SeccompArgRule,
} from './seccomp-default-data.js';

export interface SeccompSyscallRule {
  names: string[];
  action: 'SCMP_ACT_ALLOW' | 'SCMP_ACT_ERRNO';
  errnoRet?: number;
  args?: SeccompArgRule[];
}

export interface RuntimeDefaultSeccomp {
  defaultAction: 'SCMP_ACT_ERRNO';
  /** EPERM, which runc also uses when this is absent (containerd leaves it out); said outright here. */
  defaultErrnoRet: number;
  architectures: string[];
  syscalls: SeccompSyscallRule[];
}

export interface RuntimeDefaultInput {
  /** The container's bounding set (`CAP_*` names), which containerd reads. */
  capabilities: readonly string[];
  /** Node.js `process.arch` naming; the host's when unset. */
  arch?: string;
  /** `uname -r`; the host's when unset. */
  kernelRelease?: string;
}

/** True when `release` (e.g. `6.1.0-18-amd64`) is at least major.minor; false when it does not parse. */
export function kernelAtLeast(release: string, major: number, minor: number): boolean {
  const m = /^(\d+)\.(\d+)/.exec(release);
  if (!m) return false;
  const [maj, min] = [Number(m[1]), Number(m[2])];
  return maj > major || (maj === major && min >= minor);
}

export function runtimeDefaultSeccomp(input: RuntimeDefaultInput): RuntimeDefaultSeccomp {
  const arch = input.arch ?? hostArch();
  const caps = new Set(input.capabilities);
  const allow = (names: readonly string[], args?: SeccompArgRule[]): SeccompSyscallRule =>
    args ? { names: [...names], action: 'SCMP_ACT_ALLOW', args } : { names: [...names], action: 'SCMP_ACT_ALLOW' };

  const syscalls: SeccompSyscallRule[] = [allow(BASE_ALLOWED)];
  for (const rule of CONDITIONAL_ALLOWED) syscalls.push(allow(rule.names, rule.args.map((a) => ({ ...a }))));
  if (kernelAtLeast(input.kernelRelease ?? release(), 4, 8)) syscalls.push(allow(KERNEL_4_8_ALLOWED));
  const archOwn = ARCH_ALLOWED[arch];
  if (archOwn) syscalls.push(allow(archOwn));
  // In the bounding set's order, as containerd walks it; a syscall two capabilities unlock is listed twice, harmlessly.
  for (const cap of input.capabilities) {
    const names = Object.hasOwn(CAPABILITY_ALLOWED, cap) ? CAPABILITY_ALLOWED[cap] : undefined;
    if (names) syscalls.push(allow(names));
  }
  if (!caps.has('CAP_SYS_ADMIN')) {
    syscalls.push(allow(['clone'], [{ index: cloneFlagsIndex(arch), value: CLONE_NAMESPACE_FLAGS, op: 'SCMP_CMP_MASKED_EQ' }]));
    syscalls.push({ names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: enosys(arch) });
  }
  return {
    defaultAction: 'SCMP_ACT_ERRNO',
    defaultErrnoRet: EPERM,
    architectures: [...(ARCHITECTURES[arch] ?? [])],
    syscalls,
  };
}
