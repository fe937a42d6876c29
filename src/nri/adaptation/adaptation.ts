// The runtime side of NRI. It knows nothing about the engine: the engine
// passes pods and containers in NRI's own form, calls one method per
// lifecycle event, and supplies callbacks for state synchronisation,
// unsolicited updates and evictions. Plugins are invoked in index order,
// only for the events they subscribed to, one event at a time.
import { mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import { dirname } from 'node:path';
import type { Duplex } from 'node:stream';
import type * as nri from '../../api/nri.js';
import { loadNriCodec, DEFAULT_REGISTRATION_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, type NriCodec, type PluginMethods } from '../protocol.js';
import { loadEnvelopes, type Envelopes } from '../ttrpc/index.js';
import { discoverPlugins } from './discovery.js';
import { prettyEvents, type EventName } from './events.js';
import { launchPlugin } from './launcher.js';
import { PluginError, RuntimePlugin, type LogFn, type PluginHost, type PluginOrigin } from './plugin.js';
import { Result } from './result.js';
import { Serializer } from './serializer.js';
import { ValidationError, validateDefault, type DefaultValidatorConfig } from './validator.js';

export interface SyncState {
  pods: nri.PodSandboxIn[];
  containers: nri.ContainerIn[];
}

export interface AdaptationOptions {
  runtimeName: string;
  runtimeVersion: string;
  /** Where external plugins connect (only with enableExternalConnections). */
  socketPath?: string;
  /** Pre-installed plugins (IDX-NAME executables); none when unset. */
  pluginDir?: string;
  pluginConfigDir?: string;
  registrationTimeoutMs?: number;
  requestTimeoutMs?: number;
  enableExternalConnections?: boolean;
  /** Current pods and containers, for Synchronize. */
  syncFn: () => Promise<SyncState>;
  /** Applies plugin-requested updates to running containers; returns the ones that failed. */
  updateFn: (updates: nri.ContainerUpdate[]) => Promise<nri.ContainerUpdate[]>;
  /** Evicts (stops) containers a plugin asked to evict. */
  evictFn?: (evictions: nri.ContainerEviction[]) => Promise<void>;
  defaultValidator?: DefaultValidatorConfig;
  /** Only plugins of these names may register (pre-installed or external); any when unset. */
  allowedPlugins?: string[];
  /** Where launched plugins' stdout/stderr go. */
  pluginOutput?: 'ignore' | 'inherit';
  /** The PID behind an external plugin's connection (SO_PEERCRED), for listings; unknown without it. */
  peerPid?: (sock: net.Socket) => number | undefined;
  log?: LogFn;
}

/** Same shape as the CLI's NriPluginInfo (src/client/backend.ts). */
export interface PluginInfo {
  name: string;
  index: string;
  events: string[];
  /** ISO 8601. */
  connectedSince: string;
  pid?: number;
  external: boolean;
}

export interface CreateContainerResult {
  adjust: nri.ContainerAdjustment;
  update: nri.ContainerUpdate[];
  evict: nri.ContainerEviction[];
}

export interface UpdateContainerResult {
  update: nri.ContainerUpdate[];
  evict: nri.ContainerEviction[];
}

/** A create (or update) refused because plugins disagree or a validator said no. */
export class AdjustmentError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AdjustmentError';
  }
}

export class Adaptation {
  private plugins_: RuntimePlugin[] = [];
  private readonly serial = new Serializer();
  private listener: net.Server | undefined;
  private codec!: NriCodec;
  private envelopes!: Envelopes;
  private started = false;
  private readonly pending = new Set<RuntimePlugin>();
  private readonly failures = new Map<string, { errors: number; timeouts: number }>();
  readonly registrationTimeoutMs: number;
  readonly requestTimeoutMs: number;
  private readonly log: LogFn;

  constructor(private readonly opts: AdaptationOptions) {
    this.registrationTimeoutMs = opts.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TIMEOUT_MS;
    this.requestTimeoutMs = opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.log = opts.log ?? (() => undefined);
  }

  /** Launches pre-installed plugins, synchronises them, then opens the socket for external ones. */
  async start(): Promise<void> {
    if (this.started) return;
    [this.codec, this.envelopes] = await Promise.all([loadNriCodec(), loadEnvelopes()]);
    this.started = true;
    await this.startPreinstalled();
    if (this.opts.enableExternalConnections) await this.listen();
  }

  /** Stops accepting plugins, sends Shutdown to every plugin and closes them (killing launched ones). */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    const listener = this.listener;
    this.listener = undefined;
    if (listener) {
      // close() only stops accepting here; its callback would wait for plugin connections we close below.
      listener.close();
      if (this.opts.socketPath) await rm(this.opts.socketPath, { force: true });
    }
    for (const p of this.pending) p.close('runtime stopping');
    const plugins = this.plugins_;
    this.plugins_ = [];
    await Promise.all(plugins.map((p) => p.shutdown()));
    await Promise.all(plugins.map((p) => this.closeAndReap(p)));
  }

  plugins(): PluginInfo[] {
    return this.active().map((p) => ({
      name: p.name,
      index: p.idx,
      events: prettyEvents(p.events),
      connectedSince: p.connectedSince.toISOString(),
      pid: p.pid,
      external: p.external,
    }));
  }

  // --- events the engine calls --------------------------------------------

  runPodSandbox(pod: nri.PodSandboxIn): Promise<void> {
    return this.broadcast('RUN_POD_SANDBOX', 'RunPodSandbox', { pod });
  }
  stopPodSandbox(pod: nri.PodSandboxIn): Promise<void> {
    return this.broadcast('STOP_POD_SANDBOX', 'StopPodSandbox', { pod });
  }
  removePodSandbox(pod: nri.PodSandboxIn): Promise<void> {
    return this.broadcast('REMOVE_POD_SANDBOX', 'RemovePodSandbox', { pod });
  }
  updatePodSandbox(req: nri.UpdatePodSandboxRequestIn): Promise<void> {
    return this.broadcast('UPDATE_POD_SANDBOX', 'UpdatePodSandbox', req);
  }
  postUpdatePodSandbox(pod: nri.PodSandboxIn): Promise<void> {
    return this.broadcast('POST_UPDATE_POD_SANDBOX', 'PostUpdatePodSandbox', { pod });
  }
  postCreateContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<void> {
    return this.broadcast('POST_CREATE_CONTAINER', 'PostCreateContainer', { pod, container });
  }
  startContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<void> {
    return this.broadcast('START_CONTAINER', 'StartContainer', { pod, container });
  }
  postStartContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<void> {
    return this.broadcast('POST_START_CONTAINER', 'PostStartContainer', { pod, container });
  }
  postUpdateContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<void> {
    return this.broadcast('POST_UPDATE_CONTAINER', 'PostUpdateContainer', { pod, container });
  }
  removeContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<void> {
    return this.broadcast('REMOVE_CONTAINER', 'RemoveContainer', { pod, container });
  }

  /**
   * Collects every subscribed plugin's adjustment in index order and merges
   * them. Throws AdjustmentError when two plugins set the same field or a
   * validator rejects the result, PluginError when a plugin returns an error.
   */
  createContainer(podIn: nri.PodSandboxIn, containerIn: nri.ContainerIn): Promise<CreateContainerResult> {
    return this.serial.run(async () => {
      this.requireStarted();
      const pod = this.normalize<nri.PodSandbox>('PodSandbox', podIn);
      const container = this.normalize<nri.Container>('Container', containerIn);
      const original = this.normalize<nri.Container>('Container', containerIn);
      const result = new Result(container);
      const plugins = this.active();
      for (const p of plugins) {
        const rpl = await p.deliver('CREATE_CONTAINER', 'CreateContainer', { pod, container });
        if (!rpl) continue;
        try {
          result.applyCreate(rpl, p.fullName);
        } catch (err) {
          throw new AdjustmentError(`NRI: failed to create container ${original.name || original.id}: ${(err as Error).message}`, { cause: err });
        }
      }
      const out: CreateContainerResult = { adjust: result.compactAdjustment(), update: result.updateList(), evict: result.evictions };
      await this.validate(pod, original, out, result, plugins);
      return out;
    });
  }

  updateContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn, linuxResources: nri.LinuxResourcesIn): Promise<UpdateContainerResult> {
    return this.serial.run(async () => {
      this.requireStarted();
      const result = new Result(null);
      for (const p of this.active()) {
        const rpl = await p.deliver('UPDATE_CONTAINER', 'UpdateContainer', { pod, container, linuxResources });
        if (!rpl) continue;
        try {
          result.applyUpdates(rpl.update, p.fullName);
        } catch (err) {
          throw new AdjustmentError(`NRI: failed to update container ${container.id}: ${(err as Error).message}`, { cause: err });
        }
        result.evict(rpl.evict);
      }
      return { update: result.updateList(), evict: result.evictions };
    });
  }

  stopContainer(pod: nri.PodSandboxIn, container: nri.ContainerIn): Promise<{ update: nri.ContainerUpdate[] }> {
    return this.serial.run(async () => {
      this.requireStarted();
      const result = new Result(null);
      for (const p of this.active()) {
        const rpl = await p.deliver('STOP_CONTAINER', 'StopContainer', { pod, container });
        if (!rpl) continue;
        try {
          result.applyUpdates(rpl.update, p.fullName);
        } catch (err) {
          throw new AdjustmentError(`NRI: failed to stop container ${container.id}: ${(err as Error).message}`, { cause: err });
        }
      }
      return { update: result.updateList() };
    });
  }

  // --- internals -------------------------------------------------------------

  private requireStarted(): void {
    if (!this.started) throw new Error('NRI adaptation is not started');
  }

  private normalize<T>(type: string, obj: object): T {
    return this.codec.decode<T>(type, this.codec.encode(type, obj));
  }

  private active(): RuntimePlugin[] {
    this.plugins_ = this.plugins_.filter((p) => !p.closed);
    return [...this.plugins_];
  }

  private broadcast<M extends 'RunPodSandbox' | 'StopPodSandbox' | 'RemovePodSandbox' | 'UpdatePodSandbox' | 'PostUpdatePodSandbox' | 'PostCreateContainer' | 'StartContainer' | 'PostStartContainer' | 'PostUpdateContainer' | 'RemoveContainer'>(
    event: EventName,
    method: M,
    req: PluginMethods[M][0],
  ): Promise<void> {
    return this.serial.run(async () => {
      this.requireStarted();
      for (const p of this.active()) await p.deliver(event, method, req);
    });
  }

  private async validate(pod: nri.PodSandbox, container: nri.Container, out: CreateContainerResult, result: Result, plugins: RuntimePlugin[]): Promise<void> {
    const validators = plugins.filter((p) => !p.closed && p.subscribed('VALIDATE_CONTAINER_ADJUSTMENT'));
    const what = `NRI: container ${container.name || container.id} adjustment rejected`;
    if (this.opts.defaultValidator?.enable) {
      try {
        validateDefault(this.opts.defaultValidator, { pod, container, adjust: out.adjust, owners: result.owners, plugins: plugins.map((p) => p.name) });
      } catch (err) {
        if (err instanceof ValidationError) throw new AdjustmentError(`${what}: ${err.message}`, { cause: err });
        throw err;
      }
    }
    if (validators.length === 0) return;
    const req: nri.ValidateContainerAdjustmentRequestIn = {
      pod,
      container,
      adjust: out.adjust,
      update: out.update,
      owners: result.owners.toProto(),
      plugins: plugins.map((p) => ({ name: p.name, index: p.idx })),
    };
    const answers = await Promise.all(
      validators.map(async (p) => {
        try {
          return { p, rpl: await p.deliver('VALIDATE_CONTAINER_ADJUSTMENT', 'ValidateContainerAdjustment', req) };
        } catch (err) {
          return { p, err: err as Error };
        }
      }),
    );
    for (const a of answers) {
      if (a.err) throw new AdjustmentError(`${what}: validator plugin ${a.p.fullName} failed: ${a.err.message}`, { cause: a.err });
      if (!a.rpl) {
        if (a.p.closed) throw new AdjustmentError(`${what}: validator plugin ${a.p.fullName} failed: ${a.p.closeReason ?? 'disconnected'}`);
        continue; // the plugin turned out not to implement validation
      }
      if (a.rpl.reject) throw new AdjustmentError(`${what}: validator plugin ${a.p.fullName} rejected it: ${a.rpl.reason || 'no reason given'}`);
    }
  }

  private host(): PluginHost {
    return {
      codec: this.codec,
      envelopes: this.envelopes,
      requestTimeoutMs: this.requestTimeoutMs,
      log: this.log,
      updateContainers: (plugin, req) => this.unsolicitedUpdate(plugin, req),
      admitName: (name) => {
        const allowed = this.opts.allowedPlugins;
        return !allowed || allowed.includes(name) ? undefined : `plugin name ${JSON.stringify(name)} is not in the NRI validator's allowed-plugins`;
      },
      failed: (plugin, kind) => {
        const counts = this.failures.get(plugin) ?? { errors: 0, timeouts: 0 };
        if (kind === 'timeout') counts.timeouts++;
        else counts.errors++;
        this.failures.set(plugin, counts);
      },
    };
  }

  /** Requests that failed, by plugin (IDX-NAME) since start: timeouts, and other errors. */
  pluginFailures(): Array<{ plugin: string; errors: number; timeouts: number }> {
    return [...this.failures].map(([plugin, c]) => ({ plugin, ...c }));
  }

  private async unsolicitedUpdate(plugin: RuntimePlugin, req: nri.UpdateContainersRequest): Promise<nri.ContainerUpdate[]> {
    this.log('info', `plugin ${plugin.fullName} requested ${req.update.length} container update(s), ${req.evict.length} eviction(s)`);
    if (req.evict.length > 0 && this.opts.evictFn) await this.opts.evictFn(req.evict);
    return req.update.length > 0 ? this.opts.updateFn(req.update) : [];
  }

  /** Registration and Configure for a freshly connected plugin. */
  private async admit(trunk: Duplex, origin: PluginOrigin): Promise<RuntimePlugin> {
    const p = new RuntimePlugin(trunk, this.host(), origin);
    this.pending.add(p);
    try {
      await p.waitRegistration(this.registrationTimeoutMs);
      await p.configure({
        config: origin.config ?? '',
        runtimeName: this.opts.runtimeName,
        runtimeVersion: this.opts.runtimeVersion,
        registrationTimeout: String(this.registrationTimeoutMs),
        requestTimeout: String(this.requestTimeoutMs),
      });
      return p;
    } catch (err) {
      await this.closeAndReap(p);
      throw err;
    } finally {
      this.pending.delete(p);
    }
  }

  private async synchronize(plugins: RuntimePlugin[]): Promise<RuntimePlugin[]> {
    if (plugins.length === 0) return [];
    const state = await this.opts.syncFn();
    const synced: RuntimePlugin[] = [];
    const updates: nri.ContainerUpdate[] = [];
    for (const p of plugins) {
      try {
        updates.push(...(await p.synchronize(state.pods, state.containers)));
        synced.push(p);
      } catch (err) {
        this.log('warn', `failed to synchronize plugin ${p.fullName}: ${(err as Error).message}`);
        await this.closeAndReap(p);
      }
    }
    if (updates.length > 0) {
      const failed = await this.opts.updateFn(updates);
      if (failed.length > 0) this.log('warn', `${failed.length} container update(s) requested at synchronization failed`);
    }
    return synced;
  }

  private insert(plugins: RuntimePlugin[]): void {
    this.plugins_ = [...this.active(), ...plugins].sort((a, b) => (a.idx < b.idx ? -1 : a.idx > b.idx ? 1 : 0));
    for (const p of plugins) this.log('info', `plugin ${p.fullName} connected and synchronized (events: ${prettyEvents(p.events).join(',')})`);
  }

  private async startPreinstalled(): Promise<void> {
    if (!this.opts.pluginDir) return;
    const found = await discoverPlugins(this.opts.pluginDir, this.opts.pluginConfigDir, (m) => this.log('warn', m));
    const started = await Promise.all(
      found.map(async (d) => {
        try {
          const { child, socket } = await launchPlugin(d, this.opts.pluginOutput);
          return await this.admit(socket, { idx: d.idx, name: d.name, config: d.config, child });
        } catch (err) {
          this.log('warn', `failed to start pre-installed NRI plugin ${d.idx}-${d.name}: ${(err as Error).message}`);
          return undefined;
        }
      }),
    );
    const ready = started.filter((p): p is RuntimePlugin => p !== undefined);
    try {
      await this.serial.run(async () => this.insert(await this.synchronize(ready)));
    } catch (err) {
      await Promise.all(ready.map((p) => this.closeAndReap(p)));
      throw new Error(`NRI: failed to synchronize pre-installed plugins: ${(err as Error).message}`, { cause: err });
    }
  }

  private async listen(): Promise<void> {
    const path = this.opts.socketPath;
    if (!path) throw new Error('NRI: external connections enabled but no socket path configured');
    await rm(path, { force: true });
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const server = net.createServer((sock) => void this.acceptExternal(sock));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => this.log('error', `NRI socket ${path}: ${err.message}`));
    this.listener = server;
  }

  private async acceptExternal(sock: net.Socket): Promise<void> {
    sock.on('error', () => undefined);
    let p: RuntimePlugin;
    try {
      p = await this.admit(sock, { peerPid: this.opts.peerPid?.(sock) });
    } catch (err) {
      this.log('warn', `failed to start external plugin: ${(err as Error).message}`);
      return;
    }
    // Synchronise inside the event sequence, so the plugin misses no event and sees none twice.
    try {
      await this.serial.run(async () => {
        if (!this.started) {
          p.close('runtime stopped');
          return;
        }
        this.insert(await this.synchronize([p]));
      });
    } catch (err) {
      this.log('warn', `failed to synchronize plugin ${p.fullName}: ${(err as Error).message}`);
      await this.closeAndReap(p);
    }
  }

  private async closeAndReap(p: RuntimePlugin): Promise<void> {
    const child = p.origin.child;
    p.close();
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((r) => child.once('exit', () => r()));
    }
  }
}

export { PluginError };
