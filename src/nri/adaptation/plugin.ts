// The runtime's side of one plugin connection: a multiplexed socket with our
// ttrpc client on connection 1 (the plugin's Plugin service) and our ttrpc
// server on connection 2 (the Runtime service the plugin registers with).
// A plugin that times out, disconnects or breaks the protocol is closed and
// skipped; an error status it returns is passed on to the caller.
import type { ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import type * as nri from '../../api/nri.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../mux/mux.js';
import { PLUGIN_SERVICE, RUNTIME_SERVICE, type NriCodec, type PluginMethod, type PluginMethods } from '../protocol.js';
import { Code, MESSAGE_LENGTH_MAX, TtrpcClient, TtrpcClosedError, TtrpcProtocolError, TtrpcServer, TtrpcStatusError, type Envelopes } from '../ttrpc/index.js';
import { VALID_EVENTS, eventBit, isSet, type EventName } from './events.js';

export type LogFn = (level: 'debug' | 'info' | 'warn' | 'error', msg: string) => void;

export interface PluginHost {
  codec: NriCodec;
  envelopes: Envelopes;
  requestTimeoutMs: number;
  log: LogFn;
  /** A plugin failed a request: it timed out, or broke, or answered an error. Counted for metrics. */
  failed?(plugin: string, kind: 'error' | 'timeout'): void;
  /** A plugin asked for unsolicited updates and evictions; returns the updates that failed. */
  updateContainers(plugin: RuntimePlugin, req: nri.UpdateContainersRequest): Promise<nri.ContainerUpdate[]>;
  /** Why a plugin of this name may not register (the allow-list), or undefined when it may. */
  admitName?(name: string): string | undefined;
}

export interface PluginOrigin {
  /** Set for pre-installed plugins we launched; external plugins name themselves. */
  idx?: string;
  name?: string;
  config?: string;
  child?: ChildProcess;
  /** An external plugin's PID, read from its connection when the host can. */
  peerPid?: number;
}

/** Events older plugins (NRI v0.11-era API) only receive through StateChange. */
const STATE_CHANGE_EVENTS = new Set<EventName>([
  'RUN_POD_SANDBOX',
  'STOP_POD_SANDBOX',
  'REMOVE_POD_SANDBOX',
  'POST_CREATE_CONTAINER',
  'START_CONTAINER',
  'POST_START_CONTAINER',
  'POST_UPDATE_CONTAINER',
  'REMOVE_CONTAINER',
  'POST_UPDATE_POD_SANDBOX',
]);

export class PluginError extends Error {
  constructor(
    readonly plugin: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PluginError';
  }
}

export function checkPluginIndex(idx: string): void {
  if (!/^[0-9]{2}$/.test(idx)) throw new Error(`invalid plugin index ${JSON.stringify(idx)}, must be 2 digits`);
}

export function checkPluginName(name: string): void {
  if (name === '' || name.includes('/') || name.includes('\0')) throw new Error(`invalid plugin name ${JSON.stringify(name)}`);
}

function isTimeout(err: unknown): boolean {
  return err instanceof TtrpcStatusError && err.code === Code.DEADLINE_EXCEEDED;
}

function isFatal(err: unknown): boolean {
  if (err instanceof TtrpcClosedError || err instanceof TtrpcProtocolError) return true;
  return err instanceof TtrpcStatusError && err.code === Code.DEADLINE_EXCEEDED;
}

export class RuntimePlugin {
  idx: string;
  name: string;
  events = 0;
  readonly external: boolean;
  readonly connectedSince = new Date();
  /** Speaks the older API: per-event RPCs beyond v0.11 go through StateChange. */
  legacy = false;
  private closedReason: string | undefined;
  private readonly mux: Mux;
  private readonly client: TtrpcClient;
  private readonly server: TtrpcServer;
  private readonly registration: Promise<void>;
  private registered!: (err?: Error) => void;
  private readonly closeListeners: (() => void)[] = [];

  constructor(
    trunk: Duplex,
    private readonly host: PluginHost,
    readonly origin: PluginOrigin = {},
  ) {
    this.external = origin.child === undefined;
    this.idx = origin.idx ?? '';
    this.name = origin.name ?? '';
    this.registration = new Promise<void>((resolve, reject) => {
      this.registered = (err) => (err ? reject(err) : resolve());
    });
    this.registration.catch(() => undefined);
    this.mux = new Mux(trunk);
    this.client = new TtrpcClient(this.mux.open(PLUGIN_SERVICE_CONN), host.envelopes);
    this.server = new TtrpcServer(host.envelopes);
    this.server.register(RUNTIME_SERVICE, {
      RegisterPlugin: (payload) => this.onRegister(payload),
      UpdateContainers: (payload) => this.onUpdateContainers(payload),
    });
    this.server.serve(this.mux.open(RUNTIME_SERVICE_CONN));
    this.mux.on('close', () => this.close('connection closed'));
    origin.child?.once('exit', (code, signal) => this.close(`process exited (${signal ?? code})`));
  }

  get pid(): number | undefined {
    return this.origin.child?.pid ?? this.origin.peerPid;
  }

  get fullName(): string {
    return `${this.idx || '??'}-${this.name || 'plugin'}`;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  subscribed(event: EventName): boolean {
    return isSet(this.events, event);
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.closeListeners.push(listener);
  }

  /** Waits for RegisterPlugin; closes the plugin when it does not come in time. */
  async waitRegistration(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.host.failed?.(this.fullName, 'timeout');
        reject(new PluginError(this.fullName, `plugin ${this.fullName}: registration timed out after ${timeoutMs} ms`));
      }, timeoutMs);
    });
    const closed = new Promise<never>((_, reject) =>
      this.onClose(() => reject(new PluginError(this.fullName, `plugin ${this.fullName}: connection closed before registration (${this.closedReason})`))),
    );
    try {
      await Promise.race([this.registration, timeout, closed]);
    } catch (err) {
      this.close('registration failed');
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  async configure(req: nri.ConfigureRequestIn): Promise<void> {
    const rpl = await this.request('Configure', req);
    if (!rpl) throw new PluginError(this.fullName, `plugin ${this.fullName}: connection lost during Configure (${this.closedReason})`);
    let events = rpl.events;
    if (events === 0) events = VALID_EVENTS;
    const extra = events & ~VALID_EVENTS;
    if (extra !== 0) {
      this.close('invalid event mask');
      throw new PluginError(this.fullName, `plugin ${this.fullName}: invalid plugin events 0x${extra.toString(16)}`);
    }
    this.events = events;
  }

  /**
   * Sends the runtime's pods and containers. Everything goes in one message
   * when it fits under the ttrpc limit; otherwise in chunks marked `more`,
   * which the plugin must acknowledge with `more` and no updates.
   */
  async synchronize(pods: nri.PodSandboxIn[], containers: nri.ContainerIn[]): Promise<nri.ContainerUpdate[]> {
    const chunks = this.syncChunks(pods, containers);
    let last: nri.SynchronizeResponse | undefined;
    for (let i = 0; i < chunks.length; i++) {
      const more = i < chunks.length - 1;
      last = await this.request('Synchronize', { ...chunks[i], more });
      if (!last) throw new PluginError(this.fullName, `plugin ${this.fullName}: connection lost during Synchronize (${this.closedReason})`);
      if (more && (last.update.length > 0 || !last.more)) {
        this.close('split sync not supported');
        throw new PluginError(this.fullName, `plugin ${this.fullName} does not handle split sync requests`);
      }
    }
    return last?.update ?? [];
  }

  private syncChunks(pods: nri.PodSandboxIn[], containers: nri.ContainerIn[]): { pods: nri.PodSandboxIn[]; containers: nri.ContainerIn[] }[] {
    const codec = this.host.codec;
    const whole = codec.encode('SynchronizeRequest', { pods, containers, more: false }).length;
    // Leave room for the ttrpc request envelope around the payload.
    const budget = MESSAGE_LENGTH_MAX - 64 * 1024;
    if (whole <= budget) return [{ pods, containers }];
    const chunks: { pods: nri.PodSandboxIn[]; containers: nri.ContainerIn[] }[] = [];
    let cur = { pods: [] as nri.PodSandboxIn[], containers: [] as nri.ContainerIn[] };
    let size = 0;
    const add = (kind: 'pods' | 'containers', item: nri.PodSandboxIn | nri.ContainerIn, bytes: number) => {
      if (size + bytes > budget && size > 0) {
        chunks.push(cur);
        cur = { pods: [], containers: [] };
        size = 0;
      }
      (cur[kind] as unknown[]).push(item);
      size += bytes + 8;
    };
    for (const p of pods) add('pods', p, codec.encode('PodSandbox', p).length);
    for (const c of containers) add('containers', c, codec.encode('Container', c).length);
    chunks.push(cur);
    return chunks;
  }

  /**
   * Delivers an event if subscribed. Returns the response, or undefined when
   * not subscribed or the plugin was dropped for a fatal error.
   */
  async deliver<M extends PluginMethod>(event: EventName, method: M, req: PluginMethods[M][0]): Promise<PluginMethods[M][1] | undefined> {
    if (this.closed || !this.subscribed(event)) return undefined;
    if (this.legacy && STATE_CHANGE_EVENTS.has(event)) return this.stateChange(event, req);
    try {
      return await this.call(method, req);
    } catch (err) {
      if (err instanceof TtrpcStatusError && err.code === Code.UNIMPLEMENTED) {
        if (STATE_CHANGE_EVENTS.has(event)) {
          this.legacy = true;
          this.host.log('info', `plugin ${this.fullName} lacks ${method}, using StateChange for it from now on`);
          return this.stateChange(event, req);
        }
        // An older plugin that asked for "all events" (mask 0) cannot handle this one: stop sending it.
        this.events &= ~eventBit(event);
        this.host.log('info', `plugin ${this.fullName} lacks ${method}, unsubscribed from it`);
        return undefined;
      }
      return this.handleError(method, err);
    }
  }

  private async stateChange<M extends PluginMethod>(event: EventName, req: PluginMethods[M][0]): Promise<PluginMethods[M][1] | undefined> {
    const { pod, container } = req as { pod?: nri.PodSandboxIn; container?: nri.ContainerIn };
    const res = await this.request('StateChange', { event, pod, container });
    return res === undefined ? undefined : ({} as PluginMethods[M][1]);
  }

  /** One call with the request timeout; undefined if the plugin was dropped. */
  async request<M extends PluginMethod>(method: M, req: PluginMethods[M][0]): Promise<PluginMethods[M][1] | undefined> {
    if (this.closed) return undefined;
    try {
      return await this.call(method, req);
    } catch (err) {
      return this.handleError(method, err);
    }
  }

  private handleError(method: string, err: unknown): undefined {
    this.host.failed?.(this.fullName, isTimeout(err) ? 'timeout' : 'error');
    if (isFatal(err)) {
      this.host.log('error', `closing plugin ${this.fullName}, failed to handle ${method}: ${(err as Error).message}`);
      this.close(`failed to handle ${method}: ${(err as Error).message}`);
      return undefined;
    }
    const detail = err instanceof TtrpcStatusError ? err.details : (err as Error).message;
    throw new PluginError(this.fullName, `NRI plugin ${this.fullName} failed to handle ${method}: ${detail}`, { cause: err });
  }

  private async call<M extends PluginMethod>(method: M, req: PluginMethods[M][0]): Promise<PluginMethods[M][1]> {
    const codec = this.host.codec;
    const payload = codec.encode(codec.pluginRequestType(method), req);
    const res = await this.client.call(PLUGIN_SERVICE, method, payload, { timeoutMs: this.host.requestTimeoutMs });
    return codec.decode(codec.pluginResponseType(method), res);
  }

  /** Asks the plugin to shut down (best effort, bounded by the request timeout). */
  async shutdown(): Promise<void> {
    if (this.closed) return;
    await this.request('Shutdown', {}).catch(() => undefined);
  }

  close(reason = 'closed'): void {
    if (this.closed) return;
    this.closedReason = reason;
    this.registered(new Error(reason));
    this.client.close();
    this.server.close();
    this.mux.close();
    const child = this.origin.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const l of this.closeListeners.splice(0)) l();
  }

  get closeReason(): string | undefined {
    return this.closedReason;
  }

  private onRegister(payload: Buffer): Uint8Array {
    const codec = this.host.codec;
    const req = codec.decode<nri.RegisterPluginRequest>('RegisterPluginRequest', payload);
    if (this.external) {
      try {
        checkPluginName(req.pluginName);
        checkPluginIndex(req.pluginIdx);
      } catch (err) {
        this.registered(err as Error);
        throw new TtrpcStatusError(Code.INVALID_ARGUMENT, (err as Error).message);
      }
      this.name = req.pluginName;
      this.idx = req.pluginIdx;
    }
    const refused = this.host.admitName?.(this.name);
    if (refused) {
      const err = new PluginError(this.fullName, `plugin ${this.fullName} refused: ${refused}`);
      this.host.log('warn', err.message);
      this.registered(err);
      throw new TtrpcStatusError(Code.FAILED_PRECONDITION, err.message);
    }
    this.host.log('info', `plugin ${this.fullName} registered${req.NRIVersion ? ` (NRI ${req.NRIVersion})` : ''}`);
    this.registered();
    return codec.encode('Empty', {});
  }

  private async onUpdateContainers(payload: Buffer): Promise<Uint8Array> {
    const codec = this.host.codec;
    const req = codec.decode<nri.UpdateContainersRequest>('UpdateContainersRequest', payload);
    const failed = await this.host.updateContainers(this, req);
    return codec.encode('UpdateContainersResponse', { failed });
  }
}
