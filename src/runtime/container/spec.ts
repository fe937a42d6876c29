// Pure generation of OCI runtime specs (config.json) for pause and
// application containers from the image config, the CRI config and the
// sandbox. Anything that needs the host (device numbers, profile files, the
// image's /etc/passwd) is resolved by the caller and passed in.
import type * as cri from '../../api/cri.js';
import { isSystemdCgroupsPath } from '../oci/systemd-cgroup.js';
import { invalidArgument } from '../errors.js';
import type { OciImageConfig } from '../image/manifest.js';
import { clampOomScoreAdj } from '../oci/oom-score.js';
import { splitHugepageLimits, type HugepageLimit } from '../oci/hugetlb.js';
import { enumName, NAMESPACE_MODES, PROPAGATIONS, SUPPLEMENTAL_GROUPS_POLICIES, toInt, type NsMode } from './cri-values.js';
import { runtimeDefaultSeccomp } from './seccomp-default.js';
import { seccompChoice, type SeccompSettings } from './seccomp-profile.js';
import { apparmorProfileFor } from './apparmor-profile.js';
import { resolveUser, type ResolvedUser } from './user-lookup.js';
import { ociMappings, type IdMap } from '../sandbox/pod-userns.js';

export type OciSpec = Record<string, any>;

export const DEFAULT_PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export const DEFAULT_CAPABILITIES = [
  'CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FSETID', 'CAP_FOWNER', 'CAP_MKNOD', 'CAP_NET_RAW', 'CAP_SETGID',
  'CAP_SETUID', 'CAP_SETFCAP', 'CAP_SETPCAP', 'CAP_NET_BIND_SERVICE', 'CAP_SYS_CHROOT', 'CAP_KILL', 'CAP_AUDIT_WRITE',
];

export const ALL_CAPABILITIES = [
  'CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_DAC_READ_SEARCH', 'CAP_FOWNER', 'CAP_FSETID', 'CAP_KILL', 'CAP_SETGID',
  'CAP_SETUID', 'CAP_SETPCAP', 'CAP_LINUX_IMMUTABLE', 'CAP_NET_BIND_SERVICE', 'CAP_NET_BROADCAST', 'CAP_NET_ADMIN',
  'CAP_NET_RAW', 'CAP_IPC_LOCK', 'CAP_IPC_OWNER', 'CAP_SYS_MODULE', 'CAP_SYS_RAWIO', 'CAP_SYS_CHROOT', 'CAP_SYS_PTRACE',
  'CAP_SYS_PACCT', 'CAP_SYS_ADMIN', 'CAP_SYS_BOOT', 'CAP_SYS_NICE', 'CAP_SYS_RESOURCE', 'CAP_SYS_TIME',
  'CAP_SYS_TTY_CONFIG', 'CAP_MKNOD', 'CAP_LEASE', 'CAP_AUDIT_WRITE', 'CAP_AUDIT_CONTROL', 'CAP_SETFCAP',
  'CAP_MAC_OVERRIDE', 'CAP_MAC_ADMIN', 'CAP_SYSLOG', 'CAP_WAKE_ALARM', 'CAP_BLOCK_SUSPEND', 'CAP_AUDIT_READ',
  'CAP_PERFMON', 'CAP_BPF', 'CAP_CHECKPOINT_RESTORE',
];

export const DEFAULT_MASKED_PATHS = [
  '/proc/acpi', '/proc/asound', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware',
];
export const DEFAULT_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

export interface HostFeatures {
  /** The host's own oom_score_adj: nothing lower can be set. */
  oomScoreFloor: number;
  apparmor: boolean;
  selinux: boolean;
  /**
   * The capabilities the host's bounding set allows (unset: all). A privileged container asks
   * for "all", and runc fails with EPERM on any the host lacks (CAP_SYS_RESOURCE here).
   */
  capabilityBound?: string[];
  /**
   * Page sizes a hugetlb limit can be set for (probeHugepageSizes): none without a hugetlb
   * controller. Limits for other sizes are left out of the spec. Unset: not probed, all kept.
   */
  hugepageSizes?: string[];
  /**
   * Whether swap can be limited (swapControllerAvailable). true: a memory limit without a swap
   * limit gets swap = limit (no swap, as containerd); false: swap limits are left out. Unset: not
   * probed, a swap limit given is kept and none is added.
   */
  swapControl?: boolean;
}

/** Names of the capabilities in this process's bounding set (ALL_CAPABILITIES is in kernel order). */
export function parseCapabilityBound(procStatus: string): string[] | undefined {
  const hex = /^CapBnd:\s*([0-9a-f]+)$/m.exec(procStatus)?.[1];
  if (!hex) return undefined;
  const mask = BigInt(`0x${hex}`);
  return ALL_CAPABILITIES.filter((_, bit) => (mask >> BigInt(bit)) & 1n);
}

/** "All capabilities", as far as the host allows them. */
function allCapabilities(bound: string[] | undefined): string[] {
  return bound ? ALL_CAPABILITIES.filter((c) => bound.includes(c)) : [...ALL_CAPABILITIES];
}

export interface SandboxContext {
  id: string;
  /** The pause container's PID; 0 when the pod has none. */
  pausePid: number;
  /** Bind-mounted netns; undefined when the pod uses the host network. */
  netnsPath?: string;
  /** Bind-mounted IPC and UTS namespaces; undefined for host IPC / host network, and in pods made before pins (their pause's are used). */
  ipcnsPath?: string;
  utsnsPath?: string;
  namespaces: { network: NsMode; pid: NsMode; ipc: NsMode };
  hostname: string;
  resolvConfPath?: string;
  hostsPath: string;
  hostnamePath: string;
  shmPath?: string;
  /** The pod's `supplemental_groups_policy` (kubelet copies it into each container's too). */
  supplementalGroupsPolicy?: cri.LinuxSandboxSecurityContextIn['supplementalGroupsPolicy'];
  /** The pod's user namespace (userns mode POD), which every container joins. */
  userns?: UsernsJoin;
}

export interface ResolvedDevice {
  containerPath: string;
  hostPath: string;
  permissions: string;
  type: 'c' | 'b' | 'p';
  major: number;
  minor: number;
  fileMode: number;
  uid: number;
  gid: number;
}

export interface ContainerSpecInput {
  id: string;
  rootfs: string;
  config: cri.ContainerConfigIn;
  sandbox: SandboxContext;
  image: { config: OciImageConfig['config']; passwd?: string; group?: string };
  host: HostFeatures;
  cgroupsPath: string;
  devices?: ResolvedDevice[];
  /** Parsed Localhost seccomp profile, read by the caller from localhost_ref. */
  localhostSeccomp?: unknown;
  /** Init pid of the target container for NamespaceMode TARGET. */
  targetPid?: number;
  /** Whether the pod's runtime handler takes the `rro` mount option (its `features` list it). */
  recursiveReadOnlyMounts?: boolean;
  /** config.envs already deduplicated (criEnvInSlices, for a large env); else done here. */
  criEnv?: CriEnv;
  warn?: (message: string) => void;
}

/** CRI command overrides the entrypoint, args override cmd (and an overridden entrypoint drops the image cmd). */
export function processArgs(image: OciImageConfig['config'], command: string[] | undefined, args: string[] | undefined): string[] {
  const entrypoint = command && command.length ? command : (image?.Entrypoint ?? []);
  let cmd: string[];
  if (args && args.length) cmd = args;
  else if (command && command.length) cmd = [];
  else cmd = image?.Cmd ?? [];
  const all = [...entrypoint, ...cmd];
  if (all.length === 0) throw invalidArgument('no command specified: the image has no entrypoint or cmd and the config has no command');
  return all;
}

/**
 * A config's CRI env as KEY=value entries, one per key: its first position, its last value.
 * `keys[i]` is the key of `entries[i]`.
 */
export interface CriEnv {
  keys: string[];
  entries: string[];
}

const UTF8 = new TextDecoder();

/** Adds envs[from, to) to `acc` (index: key -> position, while it is built). */
function addCriEnv(acc: CriEnv, index: Map<string, number>, envs: cri.KeyValueIn[], from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const kv = envs[i]!;
    if (!kv.key) continue;
    // bytes in our proto (KeyValue.value); a string from v1alpha2 and from the daemon's chunked decode.
    const v = kv.value === undefined ? '' : kv.value instanceof Uint8Array ? UTF8.decode(kv.value) : String(kv.value);
    const entry = `${kv.key}=${v}`;
    const at = index.get(kv.key);
    if (at === undefined) {
      index.set(kv.key, acc.entries.length);
      acc.keys.push(kv.key);
      acc.entries.push(entry);
    } else acc.entries[at] = entry;
  }
}

/** The CRI env in one pass. */
export function criEnv(envs: cri.KeyValueIn[] | undefined): CriEnv {
  const acc: CriEnv = { keys: [], entries: [] };
  addCriEnv(acc, new Map(), envs ?? [], 0, envs?.length ?? 0);
  return acc;
}

/** The CRI env `slice` variables at a time, awaiting `between` in between: a 100k-entry env does not hold the event loop at once. */
export async function criEnvInSlices(envs: cri.KeyValueIn[] | undefined, slice: number, between: () => Promise<void>): Promise<CriEnv> {
  const acc: CriEnv = { keys: [], entries: [] };
  const index = new Map<string, number>();
  const all = envs ?? [];
  for (let from = 0; from < all.length; from += slice) {
    if (from > 0) await between();
    addCriEnv(acc, index, all, from, Math.min(from + slice, all.length));
  }
  return acc;
}

/**
 * Image env first, CRI envs override by key; PATH added when neither sets it. The map holds only
 * the image's and extra keys (a few): the CRI env comes deduplicated (criEnv), so a 100k-entry
 * env merges with one small-map lookup per entry.
 */
export function mergeEnv(imageEnv: string[] | undefined, envs: cri.KeyValueIn[] | CriEnv | undefined, extra: string[] = []): string[] {
  const out: string[] = [];
  const at = new Map<string, number>();
  const put = (key: string, entry: string): void => {
    const i = at.get(key);
    if (i === undefined) {
      at.set(key, out.length);
      out.push(entry);
    } else out[i] = entry;
  };
  const keyOf = (entry: string): string => {
    const eq = entry.indexOf('=');
    return eq < 0 ? entry : entry.slice(0, eq);
  };
  for (const e of imageEnv ?? []) put(keyOf(e), e);
  for (const e of extra) {
    const key = keyOf(e);
    if (!at.has(key)) put(key, e);
  }
  const cri = envs === undefined || Array.isArray(envs) ? criEnv(envs) : envs;
  let hasPath = at.has('PATH');
  for (let i = 0; i < cri.keys.length; i++) {
    const key = cri.keys[i]!;
    const j = at.get(key);
    if (j === undefined) out.push(cri.entries[i]!);
    else out[j] = cri.entries[i]!;
    if (key === 'PATH') hasPath = true;
  }
  if (!hasPath) out.push(DEFAULT_PATH_ENV);
  return out;
}

export function normaliseCapability(name: string): string {
  const upper = name.toUpperCase();
  return upper.startsWith('CAP_') ? upper : `CAP_${upper}`;
}

export function capabilities(add: string[] = [], drop: string[] = [], privileged = false, bound?: string[]): string[] {
  if (privileged) return allCapabilities(bound);
  let caps = new Set(DEFAULT_CAPABILITIES);
  if (add.some((c) => c.toUpperCase() === 'ALL')) caps = new Set(allCapabilities(bound));
  else for (const c of add) caps.add(normaliseCapability(c));
  if (drop.some((c) => c.toUpperCase() === 'ALL')) caps = new Set(add.filter((c) => c.toUpperCase() !== 'ALL').map(normaliseCapability));
  else for (const c of drop) caps.delete(normaliseCapability(c));
  return [...caps];
}

/**
 * The process's supplementary groups, as containerd sets them: the primary group first, then
 * (policy Merge, the default) the groups the image's /etc/group puts the user in, then the
 * CRI's `supplemental_groups`. Strict, on the container or its pod (Merge is the zero value, so
 * only Strict says something), leaves the image's groups out.
 */
function supplementalGroups(user: ResolvedUser, sc: cri.LinuxContainerSecurityContextIn | null | undefined, podPolicy: SandboxContext['supplementalGroupsPolicy']): number[] {
  const isStrict = (p: unknown) => enumName(p as never, SUPPLEMENTAL_GROUPS_POLICIES) === 'Strict';
  const strict = isStrict(sc?.supplementalGroupsPolicy) || isStrict(podPolicy);
  const groups = new Set([user.gid, ...(strict ? [] : user.additionalGids)]);
  for (const g of sc?.supplementalGroups ?? []) groups.add(toInt(g));
  return [...groups];
}

/** As the CRI specifies `recursive_read_only`: read-only, private, and a handler that can do it. */
function checkRecursiveReadOnly(m: cri.MountIn, prop: string, supported: boolean): void {
  const where = `mount "${m.containerPath}"`;
  if (!m.readonly) throw invalidArgument(`${where}: recursive_read_only needs readonly`);
  if (prop !== 'rprivate') throw invalidArgument(`${where}: recursive_read_only needs propagation PROPAGATION_PRIVATE`);
  if (!supported) throw invalidArgument(`${where}: recursive_read_only is not supported by the pod's runtime handler`);
}

function propagationOption(p: cri.MountIn['propagation']): string {
  switch (enumName(p as never, PROPAGATIONS)) {
    case 'PROPAGATION_BIDIRECTIONAL':
      return 'rshared';
    case 'PROPAGATION_HOST_TO_CONTAINER':
      return 'rslave';
    default:
      return 'rprivate';
  }
}

function baseMounts(privileged: boolean, shmPath?: string): OciSpec[] {
  return [
    { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'] },
    { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
    { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', privileged ? 'rw' : 'ro'] },
    { destination: '/sys/fs/cgroup', type: 'cgroup', source: 'cgroup', options: ['nosuid', 'noexec', 'nodev', 'relatime', privileged ? 'rw' : 'ro'] },
    shmPath
      ? { destination: '/dev/shm', type: 'bind', source: shmPath, options: ['rbind', 'rw'] }
      : { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
  ];
}

/** `bounding`: the process's bounding capabilities, which decide what RuntimeDefault allows. */
function seccompFor(sc: SeccompSettings | null | undefined, localhost: unknown, bounding: readonly string[]): OciSpec | undefined {
  const choice = seccompChoice(sc);
  if (!choice || choice.type === 'Unconfined') return undefined;
  if (choice.type === 'RuntimeDefault') return runtimeDefaultSeccomp({ capabilities: bounding }) as unknown as OciSpec;
  // The caller loads the file (loadLocalhostSeccomp) so that spec building stays pure.
  if (!localhost || typeof localhost !== 'object') throw invalidArgument(`seccomp profile ${choice.path} was not loaded`);
  return localhost as OciSpec;
}

/** Paths of a sandbox's namespaces that a container joins, per its NamespaceOption. */
export function containerNamespaces(sb: SandboxContext, opts: cri.NamespaceOptionIn | null | undefined, targetPid?: number): OciSpec[] {
  const ns: OciSpec[] = [{ type: 'mount' }];
  const net = enumName(opts?.network as never, NAMESPACE_MODES);
  const pid = enumName(opts?.pid as never, NAMESPACE_MODES);
  const ipc = enumName(opts?.ipc as never, NAMESPACE_MODES);
  if (net !== 'NODE' && sb.namespaces.network !== 'NODE') ns.push({ type: 'network', path: sb.netnsPath ?? `/proc/${sb.pausePid}/ns/net` });
  if (ipc !== 'NODE' && sb.namespaces.ipc !== 'NODE') ns.push({ type: 'ipc', path: sb.ipcnsPath ?? `/proc/${sb.pausePid}/ns/ipc` });
  if (sb.namespaces.network !== 'NODE') ns.push({ type: 'uts', path: sb.utsnsPath ?? `/proc/${sb.pausePid}/ns/uts` });
  if (pid === 'TARGET') {
    if (!targetPid) throw invalidArgument('pid namespace TARGET needs a running target container');
    ns.push({ type: 'pid', path: `/proc/${targetPid}/ns/pid` });
  } else if (pid === 'POD' && sb.namespaces.pid !== 'NODE' && sb.pausePid > 0) ns.push({ type: 'pid', path: `/proc/${sb.pausePid}/ns/pid` });
  // POD in a pod that shares no PID namespace (no pause holds one): a namespace of its own, as CONTAINER.
  else if (pid === 'CONTAINER' || (pid === 'POD' && sb.namespaces.pid !== 'NODE')) ns.push({ type: 'pid' });
  return ns;
}

/**
 * The OCI memory limit and swap (memory+swap, as v1's memsw; runc writes v2's memory.swap.max as
 * swap - limit) of CRI resources. As containerd: a limit without a swap limit gets swap = limit (no
 * swap) where swap can be limited, and no swap value at all where it cannot.
 */
export function memoryAndSwap(res: Pick<cri.LinuxContainerResourcesIn, 'memoryLimitInBytes' | 'memorySwapLimitInBytes'>, swapControl: boolean | undefined): { limit?: number; swap?: number } {
  const limit = toInt(res.memoryLimitInBytes) || undefined;
  const asked = toInt(res.memorySwapLimitInBytes) || undefined;
  if (swapControl === false) return { limit };
  if (asked !== undefined) return { limit, swap: asked };
  return { limit, swap: swapControl && limit !== undefined ? limit : undefined };
}

export function linuxResources(
  res: cri.LinuxContainerResourcesIn | null | undefined,
  devices: OciSpec[],
  privileged: boolean,
  host?: Pick<HostFeatures, 'hugepageSizes' | 'swapControl'>,
  warn: (message: string) => void = () => undefined,
): OciSpec {
  const out: OciSpec = {
    devices: privileged ? [{ allow: true, access: 'rwm' }] : [{ allow: false, access: 'rwm' }, ...devices],
  };
  if (!res) return out;
  const cpu: OciSpec = {};
  if (toInt(res.cpuShares)) cpu.shares = toInt(res.cpuShares);
  if (toInt(res.cpuQuota)) cpu.quota = toInt(res.cpuQuota);
  if (toInt(res.cpuPeriod)) cpu.period = toInt(res.cpuPeriod);
  if (res.cpusetCpus) cpu.cpus = res.cpusetCpus;
  if (res.cpusetMems) cpu.mems = res.cpusetMems;
  if (Object.keys(cpu).length) out.cpu = cpu;
  const memory: OciSpec = {};
  const { limit, swap } = memoryAndSwap(res, host?.swapControl);
  if (limit !== undefined) memory.limit = limit;
  if (swap !== undefined) memory.swap = swap;
  if (Object.keys(memory).length) out.memory = memory;
  const hugepages = hugepageLimits(res.hugepageLimits, host?.hugepageSizes, warn);
  if (hugepages.length) out.hugepageLimits = hugepages;
  if (res.unified && Object.keys(res.unified).length) out.unified = { ...res.unified };
  return out;
}

/** kubelet's hugepage limits as runc can apply them here (see oci/hugetlb.ts). */
function hugepageLimits(limits: cri.HugepageLimitIn[] | undefined, settable: string[] | undefined, warn: (message: string) => void): HugepageLimit[] {
  const all = (limits ?? []).map((h) => ({ pageSize: h.pageSize ?? '', limit: toInt(h.limit) }));
  if (!settable) return all;
  const { kept, dropped } = splitHugepageLimits(all, settable);
  const enforced = dropped.filter((l) => l.limit > 0);
  if (enforced.length) {
    const why = settable.length ? `page sizes on this host: ${settable.join(', ')}` : 'no hugetlb cgroup controller on this host';
    warn(`hugepage limits ${enforced.map((l) => `${l.pageSize}=${l.limit}`).join(', ')} ignored (${why})`);
  }
  return kept;
}

function deviceEntries(devices: ResolvedDevice[]): { nodes: OciSpec[]; rules: OciSpec[] } {
  return {
    nodes: devices.map((d) => ({ path: d.containerPath, type: d.type, major: d.major, minor: d.minor, fileMode: d.fileMode, uid: d.uid, gid: d.gid })),
    rules: devices.map((d) => ({ allow: true, type: d.type, major: d.major, minor: d.minor, access: d.permissions || 'rwm' })),
  };
}

function warnMac(sc: { apparmor?: unknown; apparmorProfile?: string; selinuxOptions?: unknown } | null | undefined, host: HostFeatures, warn: (m: string) => void): void {
  const wantsApparmor = !!sc?.apparmorProfile || (!!sc?.apparmor && typeof sc.apparmor === 'object');
  if (wantsApparmor && !host.apparmor) warn('AppArmor profile requested but the host has no AppArmor: ignored');
  const se = sc?.selinuxOptions as Record<string, string> | null | undefined;
  if (se && Object.values(se).some(Boolean) && !host.selinux) warn('SELinux options requested but the host has no SELinux: ignored');
}

export function buildContainerSpec(input: ContainerSpecInput): OciSpec {
  const { config, sandbox, image, host } = input;
  const warn = input.warn ?? (() => undefined);
  const sc = config.linux?.securityContext ?? undefined;
  const privileged = !!sc?.privileged;
  warnMac(sc, host, warn);

  const args = processArgs(image.config, config.command, config.args);
  let userSpec = image.config?.User ?? '';
  if (sc?.runAsUsername) userSpec = sc.runAsUsername;
  else if (sc?.runAsUser) userSpec = String(toInt(sc.runAsUser.value));
  if (sc?.runAsGroup && sc.runAsGroup.value !== undefined) {
    // As containerd and kubelet: a group alone would silently run as the image's user.
    if (!sc.runAsUser && !sc.runAsUsername) throw invalidArgument(`user group "${toInt(sc.runAsGroup.value)}" is specified without user`);
    userSpec = `${userSpec.split(':')[0] ?? ''}:${toInt(sc.runAsGroup.value)}`;
  }
  const user = resolveUser(userSpec, image.passwd, image.group);
  const additional = supplementalGroups(user, sc, sandbox.supplementalGroupsPolicy);
  const extraEnv = [`HOSTNAME=${sandbox.hostname}`];
  if (user.home) extraEnv.push(`HOME=${user.home}`);
  else extraEnv.push('HOME=/');

  const caps = capabilities(sc?.capabilities?.addCapabilities, sc?.capabilities?.dropCapabilities, privileged, host.capabilityBound);
  const ambient = (sc?.capabilities?.addAmbientCapabilities ?? []).map(normaliseCapability);
  const devices = deviceEntries(input.devices ?? []);

  const mounts = baseMounts(privileged, sandbox.shmPath);
  const userMountTargets = new Set((config.mounts ?? []).map((m) => m.containerPath));
  const podFiles: Array<[string, string | undefined]> = [
    ['/etc/hosts', sandbox.hostsPath],
    ['/etc/resolv.conf', sandbox.resolvConfPath],
    ['/etc/hostname', sandbox.hostnamePath],
  ];
  for (const [dest, src] of podFiles) {
    if (src && !userMountTargets.has(dest)) mounts.push({ destination: dest, type: 'bind', source: src, options: ['rbind', 'rprivate', sc?.readonlyRootfs ? 'ro' : 'rw'] });
  }
  let rootfsPropagation: string | undefined;
  for (const m of config.mounts ?? []) {
    if (!m.containerPath || !m.hostPath) throw invalidArgument('a mount needs container_path and host_path');
    if (!m.containerPath.startsWith('/')) throw invalidArgument(`mount container_path "${m.containerPath}" must be absolute`);
    const prop = propagationOption(m.propagation);
    if (prop === 'rshared') rootfsPropagation = 'rshared';
    else if (prop === 'rslave' && rootfsPropagation !== 'rshared') rootfsPropagation = 'rslave';
    const options = ['rbind', prop, m.readonly ? 'ro' : 'rw'];
    if (m.recursiveReadOnly) {
      checkRecursiveReadOnly(m, prop, !!input.recursiveReadOnlyMounts);
      options.push('rro');
    }
    mounts.push({ destination: m.containerPath, type: 'bind', source: m.hostPath, options });
  }

  const oomScoreAdj = clampOomScoreAdj(toInt(config.linux?.resources?.oomScoreAdj), host.oomScoreFloor);
  const seccomp = seccompFor(sc, input.localhostSeccomp, caps);
  const apparmorProfile = apparmorProfileFor(sc, host.apparmor);

  const linux: OciSpec = {
    namespaces: containerNamespaces(sandbox, sc?.namespaceOptions, input.targetPid),
    resources: linuxResources(config.linux?.resources, devices.rules, privileged, host, warn),
    cgroupsPath: input.cgroupsPath,
    devices: devices.nodes,
  };
  if (!privileged) {
    linux.maskedPaths = sc?.maskedPaths?.length ? [...sc.maskedPaths] : DEFAULT_MASKED_PATHS;
    linux.readonlyPaths = sc?.readonlyPaths?.length ? [...sc.readonlyPaths] : DEFAULT_READONLY_PATHS;
  }
  if (seccomp) linux.seccomp = seccomp;
  if (rootfsPropagation) linux.rootfsPropagation = rootfsPropagation;
  joinUserns(linux, sandbox.userns);

  return {
    ociVersion: '1.0.2',
    process: {
      terminal: !!config.tty,
      user: { uid: user.uid, gid: user.gid, additionalGids: additional },
      args,
      env: mergeEnv(image.config?.Env, input.criEnv ?? config.envs, extraEnv),
      cwd: config.workingDir || image.config?.WorkingDir || '/',
      capabilities: { bounding: caps, effective: caps, permitted: caps, inheritable: caps, ambient },
      noNewPrivileges: !!sc?.noNewPrivs,
      oomScoreAdj,
      ...(apparmorProfile ? { apparmorProfile } : {}),
    },
    root: { path: input.rootfs, readonly: !!sc?.readonlyRootfs },
    mounts,
    annotations: {
      ...(config.annotations ?? {}),
      'io.kubernetes.cri.container-type': 'container',
      'io.kubernetes.cri.sandbox-id': sandbox.id,
      ...systemdSwapProperty(input.cgroupsPath, linux.resources as OciSpec | undefined),
    },
    linux,
  };
}

/**
 * Under the systemd driver, the swap limit also as the scope's MemorySwapMax (runc passes
 * `org.systemd.property.*` annotations to the transient unit). runc 1.1 writes memory.swap.max
 * itself but tells systemd no MemorySwapMax when it is 0 (no swap), so the next
 * `systemctl daemon-reload` re-applies the unit's properties and gives the container unlimited
 * swap (containerd 1.6 has the same hole). cgroupfs paths and runs without a swap limit: none.
 */
export function systemdSwapProperty(cgroupsPath: string, resources: OciSpec | undefined): Record<string, string> {
  if (!isSystemdCgroupsPath(cgroupsPath)) return {};
  const memory = resources?.memory as { limit?: number; swap?: number } | undefined;
  if (!memory?.limit || memory.limit <= 0 || memory.swap === undefined || memory.swap < memory.limit) return {};
  return { 'org.systemd.property.MemorySwapMax': `uint64 ${memory.swap - memory.limit}` };
}

export interface SandboxSpecInput {
  id: string;
  rootfs: string;
  config: cri.PodSandboxConfigIn;
  args: string[];
  env?: string[];
  netnsPath?: string;
  /** The pod's pinned IPC and UTS namespaces, which the pause joins instead of making its own. */
  ipcnsPath?: string;
  utsnsPath?: string;
  /** Set in the pod's own UTS namespace; without it the namespace keeps the node's name. */
  hostname?: string;
  /** The pod's pinned user namespace and its mappings (userns mode POD). */
  userns?: UsernsJoin;
  cgroupsPath: string;
  host: HostFeatures;
  localhostSeccomp?: unknown;
  warn?: (message: string) => void;
}

/** A pod's pinned user namespace as a container joins it. */
export interface UsernsJoin {
  path: string;
  uid: IdMap;
  gid: IdMap;
}

/**
 * Joins the pod's user namespace: runc setns()es the pinned one (it makes no new one when given a
 * path) and is told the mappings, which it needs to know who owns what it mounts.
 */
function joinUserns(linux: OciSpec, userns: UsernsJoin | undefined): void {
  if (!userns) return;
  linux.namespaces.push({ type: 'user', path: userns.path });
  linux.uidMappings = ociMappings(userns.uid);
  linux.gidMappings = ociMappings(userns.gid);
}

export function sandboxNamespaceModes(config: cri.PodSandboxConfigIn): { network: NsMode; pid: NsMode; ipc: NsMode } {
  const o = config.linux?.securityContext?.namespaceOptions;
  return {
    network: enumName(o?.network as never, NAMESPACE_MODES),
    pid: enumName(o?.pid as never, NAMESPACE_MODES),
    ipc: enumName(o?.ipc as never, NAMESPACE_MODES),
  };
}

export function buildSandboxSpec(input: SandboxSpecInput): OciSpec {
  const sc = input.config.linux?.securityContext ?? undefined;
  const warn = input.warn ?? (() => undefined);
  const privileged = !!sc?.privileged;
  warnMac(sc as never, input.host, warn);
  const modes = sandboxNamespaceModes(input.config);
  const namespaces: OciSpec[] = [{ type: 'mount' }];
  if (modes.network !== 'NODE') {
    namespaces.push({ type: 'network', ...(input.netnsPath ? { path: input.netnsPath } : {}) });
    namespaces.push({ type: 'uts', ...(input.utsnsPath ? { path: input.utsnsPath } : {}) });
  }
  if (modes.ipc !== 'NODE') namespaces.push({ type: 'ipc', ...(input.ipcnsPath ? { path: input.ipcnsPath } : {}) });
  if (modes.pid !== 'NODE') namespaces.push({ type: 'pid' });
  const uid = sc?.runAsUser ? toInt(sc.runAsUser.value) : 0;
  const gid = sc?.runAsGroup ? toInt(sc.runAsGroup.value) : 0;
  const caps = privileged ? allCapabilities(input.host.capabilityBound) : [];
  const seccomp = seccompFor(sc, input.localhostSeccomp, caps);
  const linux: OciSpec = {
    namespaces,
    resources: linuxResources(input.config.linux?.resources, [], privileged, input.host, warn),
    cgroupsPath: input.cgroupsPath,
    sysctl: { ...(input.config.linux?.sysctls ?? {}) },
  };
  if (!privileged) {
    linux.maskedPaths = DEFAULT_MASKED_PATHS;
    linux.readonlyPaths = DEFAULT_READONLY_PATHS;
  }
  if (seccomp) linux.seccomp = seccomp;
  joinUserns(linux, input.userns);
  return {
    ociVersion: '1.0.2',
    process: {
      terminal: false,
      user: { uid, gid, additionalGids: (sc?.supplementalGroups ?? []).map((g) => toInt(g)) },
      args: input.args,
      env: input.env ?? [DEFAULT_PATH_ENV],
      cwd: '/',
      capabilities: { bounding: caps, effective: caps, permitted: caps, inheritable: caps, ambient: [] },
      noNewPrivileges: true,
      // Pods usually ask for -998; the floor keeps runc from failing where that is not allowed.
      oomScoreAdj: clampOomScoreAdj(-998, input.host.oomScoreFloor),
    },
    root: { path: input.rootfs, readonly: true },
    hostname: modes.network !== 'NODE' ? input.hostname : undefined,
    mounts: baseMounts(privileged).filter((m) => m.destination !== '/dev/mqueue' || modes.ipc !== 'NODE'),
    annotations: { ...(input.config.annotations ?? {}), 'io.kubernetes.cri.container-type': 'sandbox', 'io.kubernetes.cri.sandbox-id': input.id },
    linux,
  };
}
