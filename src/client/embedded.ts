// The embedded backend: the engine in this process, behind the same interface
// as a remote runtime. Exec and attach run in-process (no streaming URL).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as cri from '../api/cri.js';
import type { BackendOptions, CriBackend, IsulatsExtras, StreamIO } from './backend.js';
import type { Engine } from '../runtime/engine.js';
import type { EngineOptions } from '../runtime/config/engine-config.js';
import type { DaemonConfig } from '../runtime/config/daemon-config.js';

/** CRI methods served by the engine as they are. */
const CRI_METHODS = [
  'version', 'runPodSandbox', 'stopPodSandbox', 'removePodSandbox', 'podSandboxStatus', 'listPodSandbox',
  'createContainer', 'startContainer', 'stopContainer', 'removeContainer', 'listContainers', 'containerStatus',
  'updateContainerResources', 'updatePodSandboxResources', 'reopenContainerLog', 'execSync', 'exec', 'attach', 'portForward',
  'containerStats', 'listContainerStats', 'podSandboxStats', 'listPodSandboxStats', 'listMetricDescriptors', 'listPodSandboxMetrics',
  'checkpointContainer', 'checkpointPod', 'restorePod', 'updateRuntimeConfig',
  'status', 'runtimeConfig', 'getContainerEvents', 'listImages', 'imageStatus', 'pullImage', 'removeImage', 'imageFsInfo',
] as const;

/**
 * Opens the engine in this process. The CLI and the daemon share one engine
 * configuration: daemon.json ($ISULATS_DAEMON_CONFIG, default
 * /etc/isulats/daemon.json; missing means defaults), with --root, --state and
 * --registry-config-dir on top. The daemon passes its resolved config instead.
 */
export async function openEmbeddedBackend(opts: BackendOptions & { daemonConfig?: DaemonConfig; engineLog?: EngineLog; readOnly?: boolean }): Promise<CriBackend> {
  if (process.getuid?.() !== 0) {
    const { failedPrecondition } = await import('../runtime/errors.js');
    throw failedPrecondition('the embedded engine needs root (it runs runc, mounts overlays and sets up networks); run as root or point --runtime-endpoint at a CRI socket');
  }
  const cfg = opts.daemonConfig ?? (await cliEngineConfig(opts));
  // A read-only verb on a node where the engine never ran must not create its trees.
  if (opts.readOnly && !existsSync(cfg.root)) {
    const [{ statelessEmbeddedBackend }, { ENGINE_VERSION }] = await Promise.all([import('./stateless-backend.js'), import('../runtime/engine.js')]);
    return statelessEmbeddedBackend(cfg.root, ENGINE_VERSION);
  }
  const { Engine } = await import('../runtime/engine.js');
  // The daemon passes its config: its engine owns the long-lived NRI (socket included).
  const log = opts.engineLog ?? { warn: (m: string) => opts.debug?.(`warning: ${m}`), info: () => undefined };
  const scratch = opts.readOnly ? scratchStateFor(cfg.state) : undefined;
  const engineCfg = scratch ? { ...cfg, state: scratch.dir } : cfg;
  const engine = await Engine.open({ ...engineOptions(engineCfg, log, opts.daemonConfig ? 'daemon' : 'embedded'), debug: log.debug ?? opts.debug })
    .catch((err: unknown) => {
      scratch?.remove();
      throw err;
    });
  const backend = new EmbeddedBackend(engine, `embedded (${cfg.root})`, cfg);
  if (scratch) backend.onClose(scratch.remove);
  return backend;
}

/**
 * After a reboot the state dir (on tmpfs) is gone while the root is not. A read-only verb then
 * reads the root through an engine whose state is a scratch dir of its own, removed when the call
 * ends: it creates nothing of the engine's, and sees what the first verb that changes something
 * will see (nothing of the last boot runs). Undefined when the state dir is there.
 */
function scratchStateFor(state: string): { dir: string; remove: () => void } | undefined {
  if (existsSync(state)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'isulats-readonly-state-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove); // also when the call ends without closing its backend
  return { dir, remove };
}

async function cliEngineConfig(opts: BackendOptions): Promise<DaemonConfig> {
  const { DEFAULT_CONFIG_FILE, readDaemonJson, resolveDaemonConfig } = await import('../runtime/config/daemon-config.js');
  const explicit = process.env.ISULATS_DAEMON_CONFIG;
  const file = await readDaemonJson(explicit || DEFAULT_CONFIG_FILE, Boolean(explicit));
  const cfg = resolveDaemonConfig(file, { root: opts.root, state: opts.state, registryConfigDir: opts.registryConfigDir });
  // A lower-level override for scripts and tests that keep their own network config.
  if (process.env.ISULATS_CNI_CONF_DIR) cfg.cniConfDir = process.env.ISULATS_CNI_CONF_DIR;
  return cfg;
}

/** Where the engine's warnings and notable events go: the daemon's log, or the CLI's --debug output. */
export interface EngineLog {
  warn(message: string): void;
  info(message: string): void;
  /** Detail for the debug log (runc's warnings on a failed start). */
  debug?(message: string): void;
}

/** daemon.json's engine settings as the engine takes them. */
export function engineOptions(cfg: DaemonConfig, log?: EngineLog, mode: 'daemon' | 'embedded' = 'embedded'): EngineOptions {
  return {
    root: cfg.root,
    state: cfg.state,
    registryConfigDir: cfg.registryConfigDir,
    registryMirrors: cfg.registryMirrors,
    insecureRegistries: cfg.insecureRegistries,
    pauseImage: cfg.podSandboxImage,
    cniConfDir: cfg.cniConfDir,
    cniBinDirs: cfg.cniBinDirs,
    cgroupManager: cfg.cgroupManager,
    runtimes: cfg.runtimes,
    defaultRuntime: cfg.defaultRuntime,
    dropInfraContainer: cfg.dropInfraContainer,
    cdiSpecDirs: cfg.cdiSpecDirs,
    nri: cfg.nri?.support
      ? {
          enabled: true,
          mode,
          socketPath: cfg.nri.socket,
          pluginDir: cfg.nri.pluginDir,
          pluginConfigDir: cfg.nri.pluginConfigDir,
          registrationTimeoutMs: cfg.nri.registrationTimeoutMs,
          requestTimeoutMs: cfg.nri.requestTimeoutMs,
          enableExternalConnections: !cfg.nri.disableConnections,
          validator: cfg.nri.validator,
        }
      : undefined,
    watchExits: mode === 'daemon',
    warn: log && ((m) => log.warn(m)),
    info: log && ((m) => log.info(m)),
  };
}

export class EmbeddedBackend {
  readonly kind = 'embedded' as const;
  readonly extras: IsulatsExtras;

  constructor(readonly engine: Engine, readonly target: string, private readonly cfg?: DaemonConfig) {
    for (const m of CRI_METHODS) (this as any)[m] = (engine as any)[m].bind(engine);
    const images = engine.ctx.images;
    this.extras = {
      tagImage: (s, t) => images.tag(s, t),
      loadImages: (p) => images.load(p),
      saveImages: (refs, p, f) => images.save(refs, p, f as any),
      importImage: (p, ref) => images.importRootfs(p, ref),
      buildImage: (dir, ref, cfg) => images.buildFromRootfs(dir, ref, cfg as any),
      // No process lives long enough here to own the NRI socket: list the pre-installed plugins configured.
      nriPlugins: async () => {
        if (engine.ctx.nri?.mode === 'daemon') return engine.nriPlugins();
        const nri = this.cfg?.nri;
        if (!nri) return [];
        const { discoverPlugins } = await import('../nri/adaptation/discovery.js');
        const found = await discoverPlugins(nri.pluginDir, nri.pluginConfigDir);
        return found.map((p) => ({ name: p.name, index: p.idx, events: [], external: false }));
      },
      nriConfig: async () => {
        const nri = (this.cfg ?? (await import('../runtime/config/daemon-config.js')).defaultDaemonConfig()).nri;
        const mode = engine.ctx.nri?.mode ?? 'embedded';
        return {
          enabled: engine.ctx.nri !== undefined,
          mode,
          socket: nri.socket,
          externalConnections: engine.ctx.nri !== undefined && mode === 'daemon' && !nri.disableConnections,
          pluginDir: nri.pluginDir,
          pluginConfigDir: nri.pluginConfigDir,
          registrationTimeoutMs: nri.registrationTimeoutMs,
          requestTimeoutMs: nri.requestTimeoutMs,
        };
      },
      login: (server, user, pass) => images.login(server, user, pass),
      logout: (server) => images.logout(server),
      killContainer: async (id, sig) => { await engine.kill(id, sig); },
      waitContainer: (id, signal) => engine.wait(id, signal) as Promise<number>,
      topContainer: (id) => engine.top(id),
      pauseContainer: async (id) => { await engine.pause(id); },
      unpauseContainer: async (id) => { await engine.unpause(id); },
      restartContainer: async (id, t) => { await engine.restart(id, t); },
    };
  }

  async apiVersion(): Promise<'v1'> {
    return 'v1';
  }

  streamInProcess(kind: 'exec' | 'attach', req: cri.ExecRequestIn | cri.AttachRequestIn, io: StreamIO): Promise<number> {
    return this.engine.streamInProcess(kind, req, io);
  }

  private readonly closers: (() => void)[] = [];

  /** Runs `fn` after the engine closed (the read-only scratch state's removal). */
  onClose(fn: () => void): void {
    this.closers.push(fn);
  }

  async close(): Promise<void> {
    try {
      await this.engine.close();
    } finally {
      for (const fn of this.closers) fn();
    }
  }
}

// The CRI methods are attached in the constructor; this tells the compiler so.
export interface EmbeddedBackend extends Omit<CriBackend, 'kind' | 'target' | 'extras' | 'apiVersion' | 'streamInProcess' | 'close'> {}
