// The RuntimeDefault seccomp profile. A deny-list (allow by default, EPERM for
// syscalls that let a container act on the host kernel or escape its
// namespaces) rather than Docker's long allow-list: short enough to review,
// and it blocks the same host-level operations. A deliberate simplification.
const DENIED = [
  'acct', 'add_key', 'bpf', 'clock_adjtime', 'clock_settime', 'create_module', 'delete_module',
  'finit_module', 'get_kernel_syms', 'get_mempolicy', 'init_module', 'ioperm', 'iopl', 'kcmp',
  'kexec_file_load', 'kexec_load', 'keyctl', 'lookup_dcookie', 'mbind', 'mount', 'move_pages',
  'name_to_handle_at', 'nfsservctl', 'open_by_handle_at', 'perf_event_open', 'pivot_root',
  'process_vm_readv', 'process_vm_writev', 'ptrace', 'query_module', 'quotactl', 'reboot',
  'request_key', 'set_mempolicy', 'setns', 'settimeofday', 'swapoff', 'swapon', 'sysfs',
  '_sysctl', 'umount', 'umount2', 'unshare', 'uselib', 'userfaultfd', 'ustat', 'vm86', 'vm86old',
];

export function runtimeDefaultSeccomp(): Record<string, unknown> {
  return {
    defaultAction: 'SCMP_ACT_ALLOW',
    architectures: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32', 'SCMP_ARCH_AARCH64', 'SCMP_ARCH_ARM'],
    syscalls: [{ names: DENIED, action: 'SCMP_ACT_ERRNO', errnoRet: 1 }],
  };
}
