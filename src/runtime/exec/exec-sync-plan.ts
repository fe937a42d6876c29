// What build/execsync/execsync (assets/execsync) needs to run an ExecSync's process as `runc exec`
// (1.1) would, from the exec's OCI process and runc's own state of the container (state.json):
// its namespaces, cgroup paths, seccomp, session keyring and oom_score_adj. Anything the helper
// does not do (AppArmor/SELinux labels, a seccomp listener or filter flags, an unknown field)
// gives a reason instead of a plan, and the caller runs `runc exec` then: never a silent skip.
import type { OciProcess } from '../oci/oci-runtime.js';

/** The parts of runc's state.json (libcontainer's State) the plan reads. */
export interface RuncState {
  init_process_pid: number;
  init_process_start: number;
  cgroup_paths?: Record<string, string>;
  intel_rdt_path?: string;
  config: {
    rootless_euid?: boolean;
    process_label?: string;
    app_armor_profile?: string;
    namespaces?: Array<{ type: string; path?: string }> | null;
    seccomp?: { listenerPath?: string; flags?: string[] | null; [key: string]: unknown } | null;
    no_new_keyring?: boolean;
    oom_score_adj?: number | null;
    [key: string]: unknown;
  };
}

export interface ExecSyncPlanInput {
  containerId: string;
  state: RuncState;
  process: OciProcess;
  /** The container's seccomp filter as installed on its init (raw sock_filter records), when it has one. */
  seccompFilter?: Buffer;
  /** Where runc's pid file for the exec would be. */
  pidFile: string;
  /** The kernel's highest capability number (/proc/sys/kernel/cap_last_cap). */
  lastCap: number;
}

/** Process fields the helper applies (or, as `runc exec` 1.1, ignores: umask is the init's only). */
const KNOWN_PROCESS_FIELDS = new Set(['terminal', 'consoleSize', 'user', 'args', 'env', 'cwd', 'capabilities', 'rlimits', 'noNewPrivileges', 'oomScoreAdj', 'apparmorProfile', 'selinuxLabel']);

const NAMESPACE_FILES: Record<string, string> = {
  NEWUSER: 'user',
  NEWIPC: 'ipc',
  NEWUTS: 'uts',
  NEWNET: 'net',
  NEWPID: 'pid',
  NEWNS: 'mnt',
  NEWCGROUP: 'cgroup',
};

export const CAPABILITY_NUMBERS: Record<string, number> = Object.fromEntries(
  [
    'CHOWN', 'DAC_OVERRIDE', 'DAC_READ_SEARCH', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID', 'SETPCAP', 'LINUX_IMMUTABLE',
    'NET_BIND_SERVICE', 'NET_BROADCAST', 'NET_ADMIN', 'NET_RAW', 'IPC_LOCK', 'IPC_OWNER', 'SYS_MODULE', 'SYS_RAWIO', 'SYS_CHROOT',
    'SYS_PTRACE', 'SYS_PACCT', 'SYS_ADMIN', 'SYS_BOOT', 'SYS_NICE', 'SYS_RESOURCE', 'SYS_TIME', 'SYS_TTY_CONFIG', 'MKNOD', 'LEASE',
    'AUDIT_WRITE', 'AUDIT_CONTROL', 'SETFCAP', 'MAC_OVERRIDE', 'MAC_ADMIN', 'SYSLOG', 'WAKE_ALARM', 'BLOCK_SUSPEND', 'AUDIT_READ',
    'PERFMON', 'BPF', 'CHECKPOINT_RESTORE',
  ].map((name, i) => [`CAP_${name}`, i]),
);

const RLIMIT_NUMBERS: Record<string, number> = {
  RLIMIT_CPU: 0, RLIMIT_FSIZE: 1, RLIMIT_DATA: 2, RLIMIT_STACK: 3, RLIMIT_CORE: 4, RLIMIT_RSS: 5, RLIMIT_NPROC: 6, RLIMIT_NOFILE: 7,
  RLIMIT_MEMLOCK: 8, RLIMIT_AS: 9, RLIMIT_LOCKS: 10, RLIMIT_SIGPENDING: 11, RLIMIT_MSGQUEUE: 12, RLIMIT_NICE: 13, RLIMIT_RTPRIO: 14,
  RLIMIT_RTTIME: 15,
};

const RLIM_INFINITY = (1n << 64n) - 1n;

/** A uint64 limit from JSON: RLIM_INFINITY (2^64 - 1) parses to a double just above it. */
function rlimitValue(v: number): bigint {
  const n = BigInt(Math.max(0, Math.trunc(v)));
  return n > RLIM_INFINITY ? RLIM_INFINITY : n;
}

/**
 * A capability set as a mask; names the kernel lacks are left out, as runc leaves them out
 * (with a warning) rather than failing.
 */
function capMask(names: unknown, lastCap: number): bigint {
  let mask = 0n;
  for (const name of Array.isArray(names) ? names : []) {
    const n = CAPABILITY_NUMBERS[String(name)];
    if (n !== undefined && n <= lastCap) mask |= 1n << BigInt(n);
  }
  return mask;
}

/** The helper's plan ("key\0value\0" records), or why `runc exec` must run instead. */
export function execSyncPlan(input: ExecSyncPlanInput): { plan: Buffer } | { fallback: string } {
  const { process: proc, state } = input;
  for (const key of Object.keys(proc)) if (!KNOWN_PROCESS_FIELDS.has(key)) return { fallback: `process.${key}` };
  if (proc.terminal) return { fallback: 'a terminal' };
  if (proc.apparmorProfile) return { fallback: 'an AppArmor profile' };
  if (proc.selinuxLabel) return { fallback: 'an SELinux label' };
  // runc takes the container's labels for an exec whose process has none.
  if (state.config.app_armor_profile) return { fallback: 'an AppArmor profile' };
  if (state.config.process_label) return { fallback: 'an SELinux label' };
  if (state.config.rootless_euid) return { fallback: 'a rootless container' };
  if (state.intel_rdt_path) return { fallback: 'an Intel RDT group' };
  const caps = proc.capabilities as Record<string, unknown> | undefined;
  if (!caps || typeof caps !== 'object') return { fallback: 'no process.capabilities' };
  const seccomp = state.config.seccomp;
  if (seccomp?.listenerPath) return { fallback: 'a seccomp listener' };
  if (seccomp?.flags?.length) return { fallback: 'seccomp filter flags' };
  if (seccomp && !input.seccompFilter) return { fallback: 'no copy of the seccomp filter' };

  const records: Array<[string, string]> = [['pid', String(state.init_process_pid)]];
  for (const ns of state.config.namespaces ?? []) {
    // The helper joins a user namespace first, as nsexec, but no test compares it with runc yet.
    if (ns.type === 'NEWUSER') return { fallback: 'a user namespace' };
    const file = NAMESPACE_FILES[ns.type];
    if (!file) return { fallback: `namespace ${ns.type}` };
    records.push(['ns', file]);
  }
  for (const path of new Set(Object.values(state.cgroup_paths ?? {}))) if (path) records.push(['cgroup', `${path}/cgroup.procs`]);
  records.push(['pidfile', input.pidFile]);
  if (typeof state.config.oom_score_adj === 'number') records.push(['oom', String(state.config.oom_score_adj)]);
  for (const r of (proc.rlimits as Array<{ type: string; soft: number; hard: number }> | undefined) ?? []) {
    const n = RLIMIT_NUMBERS[r.type];
    if (n === undefined) return { fallback: `rlimit ${r.type}` };
    records.push(['rlimit', `${n} ${rlimitValue(r.soft)} ${rlimitValue(r.hard)}`]);
  }
  if (!state.config.no_new_keyring) records.push(['keyring', `_ses.${input.containerId}`]);
  if (proc.noNewPrivileges) records.push(['nnp', '1']);
  if (input.seccompFilter && seccomp) records.push(['seccomp', input.seccompFilter.toString('hex')]);
  const sets = ['bounding', 'effective', 'permitted', 'inheritable', 'ambient'].map((k) => capMask(caps[k], input.lastCap).toString(16));
  records.push(['caps', sets.join(' ')]);
  records.push(['uid', String(proc.user.uid)], ['gid', String(proc.user.gid)]);
  for (const g of proc.user.additionalGids ?? []) records.push(['group', String(g)]);
  records.push(['cwd', proc.cwd]);
  for (const e of proc.env ?? []) records.push(['env', e]);
  for (const a of proc.args) records.push(['arg', a]);
  for (const [, value] of records) if (value.includes('\0')) return { fallback: 'a NUL byte in the process' };
  return { plan: Buffer.from(records.map(([k, v]) => `${k}\0${v}\0`).join('')) };
}
