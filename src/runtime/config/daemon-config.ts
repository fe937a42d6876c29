// daemon.json: iSulad's keys where they apply, defaults, validation, and the
// merge defaults < file < flags. Pure apart from readDaemonJson. Every unknown
// key and every bad value is reported, one line each, in a single error.
import { MAX_TIMER_MS } from '../../util/timer-delay.js';
import type { NriValidatorOptions } from './engine-config.js';

export type LogLevel = 'fatal' | 'alert' | 'crit' | 'error' | 'warn' | 'notice' | 'info' | 'debug' | 'trace';
export const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'alert', 'crit', 'error', 'warn', 'notice', 'info', 'debug', 'trace'];

export interface LogOpts {
  /** Directory of the daemon log file (log-driver "file"). */
  logPath?: string;
  logFileMode?: number;
  maxFile?: number;
  /** Bytes. */
  maxSize?: number;
}

export interface NriConfig {
  support: boolean;
  socket: string;
  pluginDir: string;
  pluginConfigDir: string;
  registrationTimeoutMs: number;
  requestTimeoutMs: number;
  disableConnections: boolean;
  /** The builtin adjustment validator (upstream's default validator, plus allowedPlugins); off unless set. */
  validator?: NriValidatorConfig;
}

/** daemon.json's `nri-default-validator`, keys as containerd 2.x's `default_validator` (kebab-case). */
export type NriValidatorConfig = NriValidatorOptions;

/** One entry of daemon.json's `runtimes`: a runc-compatible CLI (runc, crun). */
export interface RuntimeHandlerConfig {
  /** The binary: an absolute path, or a name looked up on PATH. */
  path: string;
  /** Global options put before every command of this runtime (and passed through conmon). */
  runtimeArgs: string[];
}

export interface DaemonConfig {
  root: string;
  state: string;
  /** Listen endpoints, normalized: `unix:///abs/path` or `tcp://host:port`. */
  hosts: string[];
  enableCriV1: boolean;
  registryMirrors: string[];
  insecureRegistries: string[];
  registryConfigDir?: string;
  podSandboxImage: string;
  networkPlugin: '' | 'cni';
  cniBinDirs: string[];
  cniConfDir: string;
  websocketServerListeningPort: number;
  /** Nice of the daemon's event-loop thread only (threads and children it starts get 0); 0 leaves it as started. */
  eventLoopNice: number;
  logLevel: LogLevel;
  logDriver: 'stdout' | 'file';
  logOpts: LogOpts;
  /** The handler pods with runtime_handler "" run on; a key of `runtimes`. */
  defaultRuntime: string;
  /** Runtime handlers by name; "runc" (the runc on PATH) is there unless the file redefines it. */
  runtimes: Record<string, RuntimeHandlerConfig>;
  cgroupManager: 'cgroupfs' | 'systemd';
  /** Pods that share no PID namespace run without a pause container (CRI-O's drop_infra_ctr); false: every pod gets one. */
  dropInfraContainer: boolean;
  nri: NriConfig;
  /** CDI spec dirs, lowest priority first. */
  cdiSpecDirs: string[];
  pidfile: string;
  /** host:port of the Prometheus /metrics endpoint; none when unset (the default). */
  metricsAddress?: string;
}

/** What command-line flags may set; each one wins over the file. */
export interface DaemonFlags {
  socket?: string;
  root?: string;
  state?: string;
  registryConfigDir?: string;
  websocketServerListeningPort?: number | string;
  logLevel?: string;
  pidfile?: string;
  metricsAddress?: string;
  /** `--cni-conf-dir`, or ISULATS_CNI_CONF_DIR: over daemon.json's `cni-conf-dir`. */
  cniConfDir?: string;
}

export const DEFAULT_SOCKET = '/var/run/isulats/isulats.sock';
export const DEFAULT_CONFIG_FILE = '/etc/isulats/daemon.json';
/** A busy node's runnable processes left the event loop waiting for a CPU; see docs/daemon.md. */
export const DEFAULT_EVENT_LOOP_NICE = -10;

export function defaultDaemonConfig(): DaemonConfig {
  return {
    root: '/var/lib/isulats',
    state: '/var/run/isulats',
    hosts: [`unix://${DEFAULT_SOCKET}`],
    enableCriV1: true,
    registryMirrors: [],
    insecureRegistries: [],
    // Made locally at first need from the shipped pause binary (build/pause/pause), so offline nodes work.
    podSandboxImage: 'isulats/pause:3.9',
    networkPlugin: 'cni',
    cniBinDirs: ['/opt/cni/bin', '/usr/lib/cni'],
    cniConfDir: '/etc/cni/net.d',
    websocketServerListeningPort: 10350,
    eventLoopNice: DEFAULT_EVENT_LOOP_NICE,
    logLevel: 'info',
    logDriver: 'stdout',
    logOpts: {},
    defaultRuntime: 'runc',
    runtimes: { runc: { path: 'runc', runtimeArgs: [] } },
    cgroupManager: 'cgroupfs',
    dropInfraContainer: true,
    nri: {
      support: false,
      socket: '/var/run/nri/nri.sock',
      pluginDir: '/opt/nri/plugins',
      pluginConfigDir: '/etc/nri/conf.d',
      registrationTimeoutMs: 5000,
      requestTimeoutMs: 2000,
      disableConnections: false,
    },
    cdiSpecDirs: ['/etc/cdi', '/var/run/cdi'],
    pidfile: '/var/run/isulats.pid',
  };
}

export class DaemonConfigError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid daemon configuration (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'DaemonConfigError';
  }
}

/** The part of DaemonConfig a file sets (nri fields flattened into `nri`). */
export type DaemonFileConfig = Partial<Omit<DaemonConfig, 'nri'>> & { nri?: Partial<NriConfig> };

type Problems = string[];
type Setter = (out: DaemonFileConfig, value: unknown, key: string, problems: Problems) => void;

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function absPath(value: unknown, key: string, problems: Problems): string | undefined {
  if (typeof value !== 'string' || value === '') {
    problems.push(`"${key}": expected a non-empty path string, got ${typeName(value)}`);
    return undefined;
  }
  if (!value.startsWith('/')) {
    problems.push(`"${key}": path must be absolute, got "${value}"`);
    return undefined;
  }
  return value.length > 1 ? value.replace(/\/+$/, '') : value;
}

function bool(value: unknown, key: string, problems: Problems): boolean | undefined {
  if (typeof value === 'boolean') return value;
  problems.push(`"${key}": expected true or false, got ${JSON.stringify(value)}`);
  return undefined;
}

function nonEmptyString(value: unknown, key: string, problems: Problems): string | undefined {
  if (typeof value === 'string' && value.trim() !== '' && !/\s/.test(value)) return value;
  problems.push(`"${key}": expected a non-empty string without spaces, got ${JSON.stringify(value)}`);
  return undefined;
}

function stringList(value: unknown, key: string, problems: Problems): string[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(`"${key}": expected an array of strings, got ${typeName(value)}`);
    return undefined;
  }
  const before = problems.length;
  const out = value.map((v, i) => nonEmptyString(v, `${key}[${i}]`, problems) ?? '');
  return problems.length === before ? out : undefined;
}

function oneOf<T extends string>(value: unknown, key: string, allowed: readonly T[], problems: Problems): T | undefined {
  const v = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (v !== undefined && (allowed as readonly string[]).includes(v)) return v as T;
  problems.push(`"${key}": expected one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}, got ${JSON.stringify(value)}`);
  return undefined;
}

export function parsePort(value: unknown, key: string, problems: Problems): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535) return n;
  problems.push(`"${key}": expected a port number 1-65535, got ${JSON.stringify(value)}`);
  return undefined;
}

function niceValue(value: unknown, key: string, problems: Problems): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= -20 && value <= 19) return value;
  problems.push(`"${key}": expected a nice value, an integer -20..19, got ${JSON.stringify(value)}`);
  return undefined;
}

/** A duration: milliseconds as a number, or a string such as "500ms", "5s", "1m". */
function durationMs(value: unknown, key: string, problems: Problems): number | undefined {
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) ms = value;
  const m = typeof value === 'string' ? /^(\d+)(ms|s|m)$/.exec(value.trim()) : null;
  if (m && Number(m[1]) > 0) ms = Number(m[1]) * { ms: 1, s: 1000, m: 60_000 }[m[2] as 'ms' | 's' | 'm'];
  if (ms === undefined) {
    problems.push(`"${key}": expected a positive duration ("5s", "500ms") or milliseconds, got ${JSON.stringify(value)}`);
    return undefined;
  }
  // These become Node timers, which fire at once past MAX_TIMER_MS instead of waiting.
  if (ms > MAX_TIMER_MS) {
    problems.push(`"${key}": at most ${MAX_TIMER_MS} ms (about 24 days), got ${JSON.stringify(value)}`);
    return undefined;
  }
  return ms;
}

/** `unix:///abs`, `unix:/abs`, `/abs` or `tcp://host:port` → the normalized endpoint. */
export function normalizeHost(value: unknown, key: string, problems: Problems): string | undefined {
  if (typeof value !== 'string' || value === '') {
    problems.push(`"${key}": expected an endpoint string, got ${typeName(value)}`);
    return undefined;
  }
  let path: string | undefined;
  if (value.startsWith('unix://')) path = value.slice('unix://'.length);
  else if (value.startsWith('unix:')) path = value.slice('unix:'.length);
  else if (value.startsWith('/')) path = value;
  if (path !== undefined) {
    if (!path.startsWith('/')) problems.push(`"${key}": unix socket path must be absolute, got "${value}"`);
    else if (Buffer.byteLength(path) >= 108) problems.push(`"${key}": unix socket path is ${Buffer.byteLength(path)} bytes, the limit is 107`);
    else return `unix://${path}`;
    return undefined;
  }
  const tcp = /^tcp:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d+)$/.exec(value);
  if (tcp && Number(tcp[2]) >= 1 && Number(tcp[2]) <= 65535) return `tcp://${tcp[1]}:${tcp[2]}`;
  problems.push(`"${key}": expected unix:///path or tcp://host:port, got "${value}"`);
  return undefined;
}

/** `host:port` or `[v6]:port` → its parts; undefined when malformed. */
export function splitHostPort(address: string): { host: string; port: number } | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(address);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

function hostPort(value: unknown, key: string, problems: Problems): string | undefined {
  if (typeof value === 'string' && splitHostPort(value)) return value;
  problems.push(`"${key}": expected host:port (e.g. 127.0.0.1:9090), got ${JSON.stringify(value)}`);
  return undefined;
}

/** "30KB", "1MB", "2g", "1024" → bytes (iSulad's log max-size). */
function sizeBytes(value: unknown, key: string, problems: Problems): number | undefined {
  const m = typeof value === 'string' || typeof value === 'number' ? /^(\d+)\s*([kmg]?)i?b?$/i.exec(String(value).trim()) : null;
  if (m && Number(m[1]) > 0) return Number(m[1]) * { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  problems.push(`"${key}": expected a size such as "30KB" or "1MB", got ${JSON.stringify(value)}`);
  return undefined;
}

function logOpts(value: unknown, key: string, problems: Problems): LogOpts | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`"${key}": expected an object, got ${typeName(value)}`);
    return undefined;
  }
  const out: LogOpts = {};
  for (const [k, v] of Object.entries(value)) {
    const sub = `${key}.${k}`;
    if (k === 'log-path') out.logPath = absPath(v, sub, problems);
    else if (k === 'log-file-mode') {
      const s = typeof v === 'string' ? v : typeof v === 'number' ? v.toString(8) : '';
      if (/^0?[0-7]{3}$/.test(s)) out.logFileMode = parseInt(s, 8);
      else problems.push(`"${sub}": expected an octal file mode such as "0600", got ${JSON.stringify(v)}`);
    } else if (k === 'max-file') {
      const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
      if (typeof n === 'number' && Number.isInteger(n) && n >= 1) out.maxFile = n;
      else problems.push(`"${sub}": expected a positive integer, got ${JSON.stringify(v)}`);
    } else if (k === 'max-size') out.maxSize = sizeBytes(v, sub, problems);
    else problems.push(`"${sub}": unknown option (known: log-path, log-file-mode, max-file, max-size)`);
  }
  return out;
}

/** A CRI runtime_handler name, as kubelet's RuntimeClass handler is (a DNS label). */
const HANDLER_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

const VALIDATOR_BOOLS: Record<string, keyof NriValidatorConfig> = {
  enable: 'enable',
  'reject-oci-hook-adjustment': 'rejectOCIHookAdjustment',
  'reject-runtime-default-seccomp-adjustment': 'rejectRuntimeDefaultSeccompAdjustment',
  'reject-unconfined-seccomp-adjustment': 'rejectUnconfinedSeccompAdjustment',
  'reject-custom-seccomp-adjustment': 'rejectCustomSeccompAdjustment',
  'reject-namespace-adjustment': 'rejectNamespaceAdjustment',
  'reject-sysctl-adjustment': 'rejectSysctlAdjustment',
};

/** `nri-default-validator`: { enable, reject-*, required-plugins, tolerate-missing-plugins-annotation, allowed-plugins }. */
function nriValidator(value: unknown, key: string, problems: Problems): NriValidatorConfig | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`"${key}": expected an object such as { "enable": true, "reject-oci-hook-adjustment": true }, got ${typeName(value)}`);
    return undefined;
  }
  const before = problems.length;
  const out: NriValidatorConfig = { enable: false };
  const known = [...Object.keys(VALIDATOR_BOOLS), 'reject-seccomp-adjustment', 'required-plugins', 'tolerate-missing-plugins-annotation', 'allowed-plugins'];
  for (const [k, v] of Object.entries(value)) {
    const sub = `${key}.${k}`;
    const field = VALIDATOR_BOOLS[k];
    if (field) (out as unknown as Record<string, unknown>)[field] = bool(v, sub, problems);
    else if (k === 'reject-seccomp-adjustment') {
      // Ours: all three kinds of profile at once.
      const b = bool(v, sub, problems);
      out.rejectRuntimeDefaultSeccompAdjustment = out.rejectUnconfinedSeccompAdjustment = out.rejectCustomSeccompAdjustment = b;
    } else if (k === 'required-plugins') out.requiredPlugins = stringList(v, sub, problems);
    else if (k === 'allowed-plugins') out.allowedPlugins = stringList(v, sub, problems);
    else if (k === 'tolerate-missing-plugins-annotation') out.tolerateMissingPluginsAnnotation = nonEmptyString(v, sub, problems);
    else problems.push(`"${sub}": unknown option (known: ${known.join(', ')})`);
  }
  return problems.length === before ? out : undefined;
}

/** `runtimes`: { name: { path, runtime-args? } }, as in iSulad's and containerd's configurations. */
function runtimes(value: unknown, key: string, problems: Problems): Record<string, RuntimeHandlerConfig> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`"${key}": expected an object of runtime name to { "path", "runtime-args" }, got ${typeName(value)}`);
    return undefined;
  }
  const before = problems.length;
  const out: Record<string, RuntimeHandlerConfig> = {};
  for (const [name, entry] of Object.entries(value)) {
    const sub = `${key}.${name}`;
    if (!HANDLER_NAME.test(name)) {
      problems.push(`"${sub}": a runtime name is lower-case letters, digits and '-' (a DNS label)`);
      continue;
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      problems.push(`"${sub}": expected an object with "path", got ${typeName(entry)}`);
      continue;
    }
    const handler: RuntimeHandlerConfig = { path: '', runtimeArgs: [] };
    for (const [k, v] of Object.entries(entry)) {
      if (k === 'path') handler.path = (typeof v === 'string' && v.includes('/') ? absPath(v, `${sub}.path`, problems) : nonEmptyString(v, `${sub}.path`, problems)) ?? '';
      else if (k === 'runtime-args') handler.runtimeArgs = stringList(v, `${sub}.runtime-args`, problems) ?? [];
      else problems.push(`"${sub}.${k}": unknown option (known: path, runtime-args)`);
    }
    if (!('path' in entry)) problems.push(`"${sub}": "path" is required`);
    out[name] = handler;
  }
  return problems.length === before ? out : undefined;
}

const nri = (field: keyof NriConfig, parse: (v: unknown, k: string, p: Problems) => unknown): Setter =>
  (out, v, k, p) => {
    const parsed = parse(v, k, p);
    if (parsed !== undefined) out.nri = { ...out.nri, [field]: parsed };
  };

const set = <K extends keyof DaemonFileConfig>(field: K, parse: (v: unknown, k: string, p: Problems) => DaemonFileConfig[K] | undefined): Setter =>
  (out, v, k, p) => {
    const parsed = parse(v, k, p);
    if (parsed !== undefined) out[field] = parsed;
  };

const KEYS: Record<string, Setter> = {
  graph: set('root', absPath),
  state: set('state', absPath),
  hosts: set('hosts', (v, k, p) => {
    if (!Array.isArray(v) || v.length === 0) {
      p.push(`"${k}": expected a non-empty array of endpoints, got ${typeName(v)}`);
      return undefined;
    }
    const before = p.length;
    const out = v.map((h, i) => normalizeHost(h, `${k}[${i}]`, p) ?? '');
    return p.length === before ? out : undefined;
  }),
  'enable-cri-v1': set('enableCriV1', bool),
  'registry-mirrors': set('registryMirrors', stringList),
  'insecure-registries': set('insecureRegistries', stringList),
  'registry-config-dir': set('registryConfigDir', absPath),
  'pod-sandbox-image': set('podSandboxImage', nonEmptyString),
  'network-plugin': set('networkPlugin', (v, k, p) => (v === '' ? '' : oneOf(v, k, ['', 'cni'] as const, p))),
  'cni-bin-dir': set('cniBinDirs', (v, k, p) => {
    if (typeof v !== 'string' || v === '') {
      p.push(`"${k}": expected a path or colon-separated paths, got ${JSON.stringify(v)}`);
      return undefined;
    }
    const before = p.length;
    const dirs = v.split(':').map((d) => absPath(d, k, p) ?? '');
    return p.length === before ? dirs : undefined;
  }),
  'cni-conf-dir': set('cniConfDir', absPath),
  'websocket-server-listening-port': set('websocketServerListeningPort', parsePort),
  'event-loop-nice': set('eventLoopNice', niceValue),
  'log-level': set('logLevel', (v, k, p) => oneOf(v, k, LOG_LEVELS, p)),
  'log-driver': set('logDriver', (v, k, p) => oneOf(v, k, ['stdout', 'file'] as const, p)),
  'log-opts': set('logOpts', logOpts),
  'default-runtime': set('defaultRuntime', nonEmptyString),
  runtimes: set('runtimes', runtimes),
  'cgroup-manager': set('cgroupManager', (v, k, p) => oneOf(v, k, ['cgroupfs', 'systemd'] as const, p)),
  'drop-infra-container': set('dropInfraContainer', bool),
  'nri-support': nri('support', bool),
  'nri-socket': nri('socket', absPath),
  'nri-plugin-dir': nri('pluginDir', absPath),
  'nri-plugin-config-dir': nri('pluginConfigDir', absPath),
  'nri-registration-timeout': nri('registrationTimeoutMs', durationMs),
  'nri-request-timeout': nri('requestTimeoutMs', durationMs),
  'disable-nri-connections': nri('disableConnections', bool),
  'nri-default-validator': nri('validator', nriValidator),
  'cdi-spec-dirs': set('cdiSpecDirs', (v, k, p) => {
    const before = p.length;
    const dirs = stringList(v, k, p);
    const out = dirs?.map((d, i) => absPath(d, `${k}[${i}]`, p) ?? '');
    return p.length === before ? out : undefined;
  }),
  pidfile: set('pidfile', absPath),
  'metrics-address': set('metricsAddress', hostPort),
};

export const DAEMON_JSON_KEYS: readonly string[] = Object.keys(KEYS);

/** Parses and validates daemon.json text. Throws DaemonConfigError listing every problem. */
export function parseDaemonJson(text: string, source = 'daemon.json'): DaemonFileConfig {
  let doc: unknown;
  try {
    doc = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new DaemonConfigError(source, [`not valid JSON: ${(err as Error).message}`]);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new DaemonConfigError(source, [`expected a JSON object at the top level, got ${typeName(doc)}`]);
  }
  const out: DaemonFileConfig = {};
  const problems: Problems = [];
  for (const [key, value] of Object.entries(doc)) {
    const setter = KEYS[key];
    if (!setter) problems.push(`"${key}": unknown key${suggest(key)}`);
    else setter(out, value, key, problems);
  }
  if (problems.length > 0) throw new DaemonConfigError(source, problems);
  return out;
}

function suggest(key: string): string {
  const near = DAEMON_JSON_KEYS.find((k) => k.replace(/[-_]/g, '') === key.toLowerCase().replace(/[-_]/g, ''));
  return near ? ` (did you mean "${near}"?)` : '';
}

/** defaults < file < flags. Flag values are validated like file values. */
export function resolveDaemonConfig(file: DaemonFileConfig, flags: DaemonFlags = {}): DaemonConfig {
  const base = defaultDaemonConfig();
  const merged: DaemonConfig = {
    ...base,
    ...file,
    nri: { ...base.nri, ...file.nri },
    logOpts: { ...base.logOpts, ...file.logOpts },
    runtimes: { ...base.runtimes, ...file.runtimes },
  };
  if (!merged.runtimes[merged.defaultRuntime]) {
    const known = Object.keys(merged.runtimes).join(', ');
    throw new DaemonConfigError('daemon.json', [`"default-runtime": "${merged.defaultRuntime}" is not in "runtimes" (known: ${known})`]);
  }
  const problems: Problems = [];
  if (flags.socket !== undefined) {
    const unix = normalizeHost(flags.socket, '--socket', problems);
    if (unix?.startsWith('unix://')) merged.hosts = [unix, ...merged.hosts.filter((h) => !h.startsWith('unix://'))];
    else if (unix) problems.push(`"--socket": expected a unix socket path, got "${flags.socket}"`);
  }
  if (flags.root !== undefined) merged.root = absPath(flags.root, '--root', problems) ?? merged.root;
  if (flags.state !== undefined) merged.state = absPath(flags.state, '--state', problems) ?? merged.state;
  if (flags.registryConfigDir !== undefined) merged.registryConfigDir = absPath(flags.registryConfigDir, '--registry-config-dir', problems);
  if (flags.pidfile !== undefined) merged.pidfile = absPath(flags.pidfile, '--pidfile', problems) ?? merged.pidfile;
  if (flags.cniConfDir !== undefined) merged.cniConfDir = absPath(flags.cniConfDir, '--cni-conf-dir', problems) ?? merged.cniConfDir;
  if (flags.websocketServerListeningPort !== undefined) {
    merged.websocketServerListeningPort = parsePort(flags.websocketServerListeningPort, '--websocket-server-listening-port', problems) ?? merged.websocketServerListeningPort;
  }
  if (flags.metricsAddress !== undefined) merged.metricsAddress = hostPort(flags.metricsAddress, '--metrics-address', problems) ?? merged.metricsAddress;
  if (flags.logLevel !== undefined) merged.logLevel = oneOf(flags.logLevel, '--log-level', LOG_LEVELS, problems) ?? merged.logLevel;
  if (problems.length > 0) throw new DaemonConfigError('command line', problems);
  return merged;
}

/** The unix socket paths among `hosts`. */
export function unixSockets(cfg: DaemonConfig): string[] {
  return cfg.hosts.filter((h) => h.startsWith('unix://')).map((h) => h.slice('unix://'.length));
}

/** Reads daemon.json; a missing file is fine unless it was named explicitly. */
export async function readDaemonJson(path: string, explicit: boolean): Promise<DaemonFileConfig> {
  const { readFile } = await import('node:fs/promises');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return {};
    throw new DaemonConfigError(path, [`cannot read: ${(err as Error).message}`]);
  }
  return parseDaemonJson(text, path);
}
