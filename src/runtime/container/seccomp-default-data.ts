// The RuntimeDefault seccomp profile as data: an allow-list equal to containerd 1.7's default
// (contrib/seccomp/seccomp_default.go, checked against the spec containerd 1.7.24 writes by
// test/integration/daemon-seccomp-containerd.test.ts). Anything not listed fails with EPERM.
// seccomp-default.ts turns these groups into an OCI `linux.seccomp` for one container's
// capabilities, kernel and architecture. Debian 12's libseccomp (2.5.4-1+deb12u1) resolves every
// name here on x86_64, x86 and x32 (the newest too: cachestat, fchmodat2, futex_wake, ...); runc
// ignores a name its libseccomp does not know, for us as for containerd.

/** An argument condition as OCI writes it (`linux.seccomp.syscalls[].args[]`). */
export interface SeccompArgRule {
  index: number;
  value: number;
  valueTwo?: number;
  op: 'SCMP_CMP_EQ' | 'SCMP_CMP_NE' | 'SCMP_CMP_MASKED_EQ';
}

/** Allowed only when every condition holds. */
export interface ConditionalAllow {
  names: string[];
  args: SeccompArgRule[];
}

/** libseccomp architecture names per Node.js `process.arch` (containerd's per GOARCH; none elsewhere). */
export const ARCHITECTURES: Readonly<Record<string, readonly string[]>> = {
  x64: ['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32'],
  arm64: ['SCMP_ARCH_ARM', 'SCMP_ARCH_AARCH64'],
  s390x: ['SCMP_ARCH_S390', 'SCMP_ARCH_S390X'],
  riscv64: ['SCMP_ARCH_RISCV64'],
  mips64el: ['SCMP_ARCH_MIPSEL', 'SCMP_ARCH_MIPSEL64', 'SCMP_ARCH_MIPSEL64N32'],
};

/** Allowed for every container, whatever its capabilities. io_uring is in, as in containerd 1.7. */
export const BASE_ALLOWED: readonly string[] = [
  'accept', 'accept4', 'access', 'adjtimex', 'alarm', 'bind', 'brk', 'cachestat', 'capget', 'capset',
  'chdir', 'chmod', 'chown', 'chown32', 'clock_adjtime', 'clock_adjtime64', 'clock_getres',
  'clock_getres_time64', 'clock_gettime', 'clock_gettime64', 'clock_nanosleep',
  'clock_nanosleep_time64', 'close', 'close_range', 'connect', 'copy_file_range', 'creat', 'dup',
  'dup2', 'dup3', 'epoll_create', 'epoll_create1', 'epoll_ctl', 'epoll_ctl_old', 'epoll_pwait',
  'epoll_pwait2', 'epoll_wait', 'epoll_wait_old', 'eventfd', 'eventfd2', 'execve', 'execveat', 'exit',
  'exit_group', 'faccessat', 'faccessat2', 'fadvise64', 'fadvise64_64', 'fallocate', 'fanotify_mark',
  'fchdir', 'fchmod', 'fchmodat', 'fchmodat2', 'fchown', 'fchown32', 'fchownat', 'fcntl', 'fcntl64',
  'fdatasync', 'fgetxattr', 'flistxattr', 'flock', 'fork', 'fremovexattr', 'fsetxattr', 'fstat',
  'fstat64', 'fstatat64', 'fstatfs', 'fstatfs64', 'fsync', 'ftruncate', 'ftruncate64', 'futex',
  'futex_requeue', 'futex_time64', 'futex_wait', 'futex_waitv', 'futex_wake', 'futimesat', 'getcpu',
  'getcwd', 'getdents', 'getdents64', 'getegid', 'getegid32', 'geteuid', 'geteuid32', 'getgid',
  'getgid32', 'getgroups', 'getgroups32', 'getitimer', 'getpeername', 'getpgid', 'getpgrp', 'getpid',
  'getppid', 'getpriority', 'getrandom', 'getresgid', 'getresgid32', 'getresuid', 'getresuid32',
  'getrlimit', 'get_robust_list', 'getrusage', 'getsid', 'getsockname', 'getsockopt',
  'get_thread_area', 'gettid', 'gettimeofday', 'getuid', 'getuid32', 'getxattr', 'inotify_add_watch',
  'inotify_init', 'inotify_init1', 'inotify_rm_watch', 'io_cancel', 'ioctl', 'io_destroy',
  'io_getevents', 'io_pgetevents', 'io_pgetevents_time64', 'ioprio_get', 'ioprio_set', 'io_setup',
  'io_submit', 'io_uring_enter', 'io_uring_register', 'io_uring_setup', 'ipc', 'kill',
  'landlock_add_rule', 'landlock_create_ruleset', 'landlock_restrict_self', 'lchown', 'lchown32',
  'lgetxattr', 'link', 'linkat', 'listen', 'listxattr', 'llistxattr', '_llseek', 'lremovexattr',
  'lseek', 'lsetxattr', 'lstat', 'lstat64', 'madvise', 'membarrier', 'memfd_create', 'memfd_secret',
  'mincore', 'mkdir', 'mkdirat', 'mknod', 'mknodat', 'mlock', 'mlock2', 'mlockall',
  'map_shadow_stack', 'mmap', 'mmap2', 'mprotect', 'mq_getsetattr', 'mq_notify', 'mq_open',
  'mq_timedreceive', 'mq_timedreceive_time64', 'mq_timedsend', 'mq_timedsend_time64', 'mq_unlink',
  'mremap', 'msgctl', 'msgget', 'msgrcv', 'msgsnd', 'msync', 'munlock', 'munlockall', 'munmap',
  'name_to_handle_at', 'nanosleep', 'newfstatat', '_newselect', 'open', 'openat', 'openat2', 'pause',
  'pidfd_open', 'pidfd_send_signal', 'pipe', 'pipe2', 'pkey_alloc', 'pkey_free', 'pkey_mprotect',
  'poll', 'ppoll', 'ppoll_time64', 'prctl', 'pread64', 'preadv', 'preadv2', 'prlimit64',
  'process_mrelease', 'pselect6', 'pselect6_time64', 'pwrite64', 'pwritev', 'pwritev2', 'read',
  'readahead', 'readlink', 'readlinkat', 'readv', 'recv', 'recvfrom', 'recvmmsg', 'recvmmsg_time64',
  'recvmsg', 'remap_file_pages', 'removexattr', 'rename', 'renameat', 'renameat2', 'restart_syscall',
  'rmdir', 'rseq', 'rt_sigaction', 'rt_sigpending', 'rt_sigprocmask', 'rt_sigqueueinfo',
  'rt_sigreturn', 'rt_sigsuspend', 'rt_sigtimedwait', 'rt_sigtimedwait_time64', 'rt_tgsigqueueinfo',
  'sched_getaffinity', 'sched_getattr', 'sched_getparam', 'sched_get_priority_max',
  'sched_get_priority_min', 'sched_getscheduler', 'sched_rr_get_interval',
  'sched_rr_get_interval_time64', 'sched_setaffinity', 'sched_setattr', 'sched_setparam',
  'sched_setscheduler', 'sched_yield', 'seccomp', 'select', 'semctl', 'semget', 'semop', 'semtimedop',
  'semtimedop_time64', 'send', 'sendfile', 'sendfile64', 'sendmmsg', 'sendmsg', 'sendto', 'setfsgid',
  'setfsgid32', 'setfsuid', 'setfsuid32', 'setgid', 'setgid32', 'setgroups', 'setgroups32',
  'setitimer', 'setpgid', 'setpriority', 'setregid', 'setregid32', 'setresgid', 'setresgid32',
  'setresuid', 'setresuid32', 'setreuid', 'setreuid32', 'setrlimit', 'set_robust_list', 'setsid',
  'setsockopt', 'set_thread_area', 'set_tid_address', 'setuid', 'setuid32', 'setxattr', 'shmat',
  'shmctl', 'shmdt', 'shmget', 'shutdown', 'sigaltstack', 'signalfd', 'signalfd4', 'sigprocmask',
  'sigreturn', 'socketcall', 'socketpair', 'splice', 'stat', 'stat64', 'statfs', 'statfs64', 'statx',
  'symlink', 'symlinkat', 'sync', 'sync_file_range', 'syncfs', 'sysinfo', 'tee', 'tgkill', 'time',
  'timer_create', 'timer_delete', 'timer_getoverrun', 'timer_gettime', 'timer_gettime64',
  'timer_settime', 'timer_settime64', 'timerfd_create', 'timerfd_gettime', 'timerfd_gettime64',
  'timerfd_settime', 'timerfd_settime64', 'times', 'tkill', 'truncate', 'truncate64', 'ugetrlimit',
  'umask', 'uname', 'unlink', 'unlinkat', 'utime', 'utimensat', 'utimensat_time64', 'utimes', 'vfork',
  'vmsplice', 'wait4', 'waitid', 'waitpid', 'write', 'writev',
];

const AF_VSOCK = 40;

/**
 * Allowed with argument conditions, for every container: sockets of any family but vsock (the
 * host's hypervisor channel), and personality() only for the values libc and `setarch` use
 * (Linux, LINUX32 and their UNAME26 forms, 0xffffffff to query): READ_IMPLIES_EXEC and
 * ADDR_NO_RANDOMIZE would weaken the container's memory protections.
 */
export const CONDITIONAL_ALLOWED: readonly ConditionalAllow[] = [
  { names: ['socket'], args: [{ index: 0, value: AF_VSOCK, op: 'SCMP_CMP_NE' }] },
  ...[0x0, 0x0008, 0x20000, 0x20008, 0xffffffff].map((value) => ({
    names: ['personality'],
    args: [{ index: 0, value, op: 'SCMP_CMP_EQ' as const }],
  })),
];

/** Since 4.8 seccomp runs again after a tracer changes a syscall, so ptrace cannot bypass it. */
export const KERNEL_4_8_ALLOWED: readonly string[] = ['process_vm_readv', 'process_vm_writev', 'ptrace'];

/** Per Node.js `process.arch`: the architecture's own syscalls. */
export const ARCH_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  x64: ['arch_prctl', 'modify_ldt'],
  ia32: ['modify_ldt'],
  arm: ['arm_fadvise64_64', 'arm_sync_file_range', 'sync_file_range2', 'breakpoint', 'cacheflush', 'set_tls'],
  arm64: ['arm_fadvise64_64', 'arm_sync_file_range', 'sync_file_range2', 'breakpoint', 'cacheflush', 'set_tls'],
  ppc64: ['sync_file_range2', 'swapcontext'],
  s390: ['s390_pci_mmio_read', 's390_pci_mmio_write', 's390_runtime_instr'],
  s390x: ['s390_pci_mmio_read', 's390_pci_mmio_write', 's390_runtime_instr'],
  riscv64: ['riscv_flush_icache'],
};

/** Syscalls a capability in the container's bounding set unlocks. */
export const CAPABILITY_ALLOWED: Readonly<Record<string, readonly string[]>> = {
  CAP_DAC_READ_SEARCH: ['open_by_handle_at'],
  CAP_SYS_ADMIN: [
    'bpf', 'clone', 'clone3', 'fanotify_init', 'fsconfig', 'fsmount', 'fsopen', 'fspick', 'lookup_dcookie',
    'mount', 'mount_setattr', 'move_mount', 'open_tree', 'perf_event_open', 'quotactl', 'quotactl_fd',
    'setdomainname', 'sethostname', 'setns', 'syslog', 'umount', 'umount2', 'unshare',
  ],
  CAP_SYS_BOOT: ['reboot'],
  CAP_SYS_CHROOT: ['chroot'],
  CAP_SYS_MODULE: ['delete_module', 'init_module', 'finit_module'],
  CAP_SYS_PACCT: ['acct'],
  CAP_SYS_PTRACE: ['kcmp', 'pidfd_getfd', 'process_madvise', 'process_vm_readv', 'process_vm_writev', 'ptrace'],
  CAP_SYS_RAWIO: ['iopl', 'ioperm'],
  CAP_SYS_TIME: ['settimeofday', 'stime', 'clock_settime', 'clock_settime64'],
  CAP_SYS_TTY_CONFIG: ['vhangup'],
  CAP_SYS_NICE: ['get_mempolicy', 'mbind', 'set_mempolicy', 'set_mempolicy_home_node'],
  CAP_SYSLOG: ['syslog'],
  CAP_BPF: ['bpf'],
  CAP_PERFMON: ['perf_event_open'],
};

/** CLONE_NEWNS|NEWUTS|NEWIPC|NEWUSER|NEWPID|NEWNET|NEWCGROUP: a clone with none of them makes no namespace. */
export const CLONE_NAMESPACE_FLAGS = 0x7e020000;

/** Where clone's flags are: its first argument, the second on s390 (its arguments are swapped). */
export function cloneFlagsIndex(arch: string): number {
  return arch === 's390' || arch === 's390x' ? 1 : 0;
}

/** ENOSYS, which clone3 answers without CAP_SYS_ADMIN (libc then falls back to clone, whose flags a filter can read). */
export function enosys(arch: string): number {
  return arch.startsWith('mips') ? 89 : 38;
}

export const EPERM = 1;
