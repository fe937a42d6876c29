// The plugin side of NRI: connects to the runtime (its socket, or the
// pre-connected fd 3 a runtime gives plugins it launches), registers,
// subscribes to the events the plugin has handlers for, and dispatches the
// runtime's calls to them. Serves the Plugin service on multiplexed
// connection 1 and calls the Runtime service on connection 2.
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type * as nri from '../../api/nri.js';
import { EVENT_METHODS, maskOf, type EventName } from '../adaptation/events.js';
import { Mux, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../mux/mux.js';
import {
  DEFAULT_REGISTRATION_TIMEOUT_MS,
  DEFAULT_SOCKET_PATH,
  PLUGIN_IDX_ENV,
  PLUGIN_NAME_ENV,
  PLUGIN_SERVICE,
  PLUGIN_SOCKET_ENV,
  RUNTIME_SERVICE,
  loadNriCodec,
  type NriCodec,
  type PluginMethod,
} from '../protocol.js';
import { TtrpcClient, TtrpcServer, loadEnvelopes, type MethodHandler } from '../ttrpc/index.js';

type Awaitable<T> = T | Promise<T>;

export interface ConfigureInfo {
  config: string;
  runtimeName: string;
  runtimeVersion: string;
  registrationTimeoutMs: number;
  requestTimeoutMs: number;
}

export interface CreateContainerReply {
  adjust?: nri.ContainerAdjustmentIn;
  update?: nri.ContainerUpdateIn[];
  evict?: nri.ContainerEvictionIn[];
}

export interface UpdateContainerReply {
  update?: nri.ContainerUpdateIn[];
  evict?: nri.ContainerEvictionIn[];
}

/** Implement the handlers you need; the plugin is subscribed to exactly those events. */
export interface Plugin {
  /** Return an event list to subscribe to something other than the implemented handlers. */
  configure?(info: ConfigureInfo): Awaitable<EventName[] | void>;
  synchronize?(pods: nri.PodSandbox[], containers: nri.Container[]): Awaitable<nri.ContainerUpdateIn[] | void>;
  shutdown?(): Awaitable<void>;
  runPodSandbox?(pod: nri.PodSandbox): Awaitable<void>;
  stopPodSandbox?(pod: nri.PodSandbox): Awaitable<void>;
  removePodSandbox?(pod: nri.PodSandbox): Awaitable<void>;
  updatePodSandbox?(pod: nri.PodSandbox, overhead: nri.LinuxResources | null, resources: nri.LinuxResources | null): Awaitable<void>;
  postUpdatePodSandbox?(pod: nri.PodSandbox): Awaitable<void>;
  createContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<CreateContainerReply | void>;
  postCreateContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<void>;
  startContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<void>;
  postStartContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<void>;
  updateContainer?(pod: nri.PodSandbox, container: nri.Container, resources: nri.LinuxResources | null): Awaitable<UpdateContainerReply | void>;
  postUpdateContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<void>;
  stopContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<nri.ContainerUpdateIn[] | void>;
  removeContainer?(pod: nri.PodSandbox, container: nri.Container): Awaitable<void>;
  /** Throw (or return a reason string) to reject the adjustment. */
  validateContainerAdjustment?(req: nri.ValidateContainerAdjustmentRequest): Awaitable<string | void>;
}

export interface StubOptions {
  /** Plugin name; from NRI_PLUGIN_NAME when launched by the runtime. */
  name?: string;
  /** Two-digit index; from NRI_PLUGIN_IDX when launched by the runtime. */
  idx?: string;
  /** Runtime socket; ignored when NRI_PLUGIN_SOCKET gives a pre-connected fd. */
  socketPath?: string;
  /** An already connected socket (tests, custom transports). */
  connection?: Duplex;
  /** Environment to read NRI_PLUGIN_* from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Bound on RegisterPlugin, and on the runtime's Configure after it (default 5000 ms each). */
  registrationTimeoutMs?: number;
  /** Log sink (default: stderr lines prefixed with the plugin name). */
  log?: (level: 'debug' | 'info' | 'warn' | 'error', msg: string) => void;
}

const HANDLER_EVENTS: [keyof Plugin, EventName][] = [
  ['runPodSandbox', 'RUN_POD_SANDBOX'],
  ['stopPodSandbox', 'STOP_POD_SANDBOX'],
  ['removePodSandbox', 'REMOVE_POD_SANDBOX'],
  ['updatePodSandbox', 'UPDATE_POD_SANDBOX'],
  ['postUpdatePodSandbox', 'POST_UPDATE_POD_SANDBOX'],
  ['createContainer', 'CREATE_CONTAINER'],
  ['postCreateContainer', 'POST_CREATE_CONTAINER'],
  ['startContainer', 'START_CONTAINER'],
  ['postStartContainer', 'POST_START_CONTAINER'],
  ['updateContainer', 'UPDATE_CONTAINER'],
  ['postUpdateContainer', 'POST_UPDATE_CONTAINER'],
  ['stopContainer', 'STOP_CONTAINER'],
  ['removeContainer', 'REMOVE_CONTAINER'],
  ['validateContainerAdjustment', 'VALIDATE_CONTAINER_ADJUSTMENT'],
];

/** Events implemented by a plugin object (own or prototype methods). */
export function implementedEvents(plugin: Plugin): EventName[] {
  return HANDLER_EVENTS.filter(([h]) => typeof plugin[h] === 'function').map(([, e]) => e);
}

export class Stub {
  readonly name: string;
  readonly idx: string;
  private codec!: NriCodec;
  private mux: Mux | undefined;
  private client: TtrpcClient | undefined;
  private server: TtrpcServer | undefined;
  private syncPods: nri.PodSandbox[] = [];
  private syncContainers: nri.Container[] = [];
  private readonly preconnectedFd: number | undefined;
  private configured!: () => void;
  private failStart!: (err: Error) => void;
  private readonly configuredP: Promise<void>;
  private synced!: () => void;
  private readonly syncedP: Promise<void>;
  private readonly closedP: Promise<void>;
  private closedResolve!: () => void;
  private isClosed = false;
  readonly log: (level: 'debug' | 'info' | 'warn' | 'error', msg: string) => void;

  constructor(
    private readonly plugin: Plugin,
    private readonly opts: StubOptions = {},
  ) {
    const env = opts.env ?? process.env;
    const fd = env[PLUGIN_SOCKET_ENV];
    this.preconnectedFd = fd !== undefined && fd !== '' && !opts.connection ? Number(fd) : undefined;
    this.name = opts.name ?? env[PLUGIN_NAME_ENV] ?? '';
    this.idx = opts.idx ?? env[PLUGIN_IDX_ENV] ?? '';
    if (!this.name) throw new Error('NRI stub: plugin name required (option name or NRI_PLUGIN_NAME)');
    if (!/^[0-9]{2}$/.test(this.idx)) throw new Error(`NRI stub: plugin index must be 2 digits, got ${JSON.stringify(this.idx)}`);
    this.log = opts.log ?? ((level, msg) => process.stderr.write(`[${this.idx}-${this.name}] ${level}: ${msg}\n`));
    this.configuredP = new Promise((resolve, reject) => {
      this.configured = resolve;
      this.failStart = reject;
    });
    this.configuredP.catch(() => undefined);
    this.syncedP = new Promise((resolve) => (this.synced = resolve));
    this.closedP = new Promise((resolve) => (this.closedResolve = resolve));
  }

  /**
   * Connects, registers, and resolves once the runtime has configured the
   * plugin (as upstream's stub does). Runtimes may synchronise later: some
   * wait until their own state is loaded; see synchronized().
   */
  async start(): Promise<void> {
    const [codec, envelopes] = await Promise.all([loadNriCodec(), loadEnvelopes()]);
    this.codec = codec;
    const trunk = await this.connect();
    const mux = new Mux(trunk);
    this.mux = mux;
    mux.on('close', () => this.onClosed());
    this.server = new TtrpcServer(envelopes);
    this.server.register(PLUGIN_SERVICE, this.handlers());
    this.server.serve(mux.open(PLUGIN_SERVICE_CONN));
    this.client = new TtrpcClient(mux.open(RUNTIME_SERVICE_CONN), envelopes);
    const timeoutMs = this.opts.registrationTimeoutMs ?? DEFAULT_REGISTRATION_TIMEOUT_MS;
    try {
      await this.callRuntime('RegisterPluginRequest', 'Empty', 'RegisterPlugin', { pluginName: this.name, pluginIdx: this.idx }, timeoutMs);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`NRI stub: runtime did not configure the plugin within ${timeoutMs} ms`)), timeoutMs);
      });
      await Promise.race([this.configuredP, late]).finally(() => clearTimeout(timer));
    } catch (err) {
      this.stop();
      throw err;
    }
  }

  /** Resolves after the runtime's (last) Synchronize call was handled. */
  synchronized(): Promise<void> {
    return this.syncedP;
  }

  /** Resolves when the connection to the runtime is gone. */
  wait(): Promise<void> {
    return this.closedP;
  }

  /** start() then wait(). */
  async run(): Promise<void> {
    await this.start();
    await this.wait();
  }

  stop(): void {
    this.mux?.close();
    this.onClosed();
  }

  /** Asks the runtime for unsolicited container updates; returns the ones that failed. */
  async updateContainers(update: nri.ContainerUpdateIn[], evict: nri.ContainerEvictionIn[] = []): Promise<nri.ContainerUpdate[]> {
    const res = await this.callRuntime<nri.UpdateContainersResponse>('UpdateContainersRequest', 'UpdateContainersResponse', 'UpdateContainers', { update, evict });
    return res.failed;
  }

  /** Asks the runtime to evict a container. */
  async evict(containerId: string, reason: string): Promise<void> {
    await this.updateContainers([], [{ containerId, reason }]);
  }

  private async connect(): Promise<Duplex> {
    if (this.opts.connection) return this.opts.connection;
    if (this.preconnectedFd !== undefined) {
      if (!Number.isInteger(this.preconnectedFd)) throw new Error(`NRI stub: invalid ${PLUGIN_SOCKET_ENV}`);
      return new net.Socket({ fd: this.preconnectedFd, readable: true, writable: true });
    }
    const path = this.opts.socketPath ?? DEFAULT_SOCKET_PATH;
    return new Promise((resolve, reject) => {
      const sock = net.connect(path);
      sock.once('connect', () => {
        sock.off('error', reject);
        resolve(sock);
      });
      sock.once('error', (err) => reject(new Error(`NRI stub: cannot connect to ${path}: ${err.message}`)));
    });
  }

  private async callRuntime<T>(reqType: string, resType: string, method: string, req: object, timeoutMs?: number): Promise<T> {
    if (!this.client) throw new Error('NRI stub: not connected');
    const payload = await this.client.call(RUNTIME_SERVICE, method, this.codec.encode(reqType, req), { timeoutMs });
    return this.codec.decode<T>(resType, payload);
  }

  private onClosed(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.client?.close();
    this.server?.close();
    this.failStart(new Error('NRI stub: connection to the runtime closed'));
    this.closedResolve();
  }

  private handlers(): Record<PluginMethod, MethodHandler> {
    const p = this.plugin;
    const c = () => this.codec;
    const wrap =
      <Req, Res extends object>(method: PluginMethod, fn: (req: Req) => Promise<Res> | Res): MethodHandler =>
      async (payload) => {
        const req = c().decode<Req>(c().pluginRequestType(method), payload);
        const res = await fn(req);
        return c().encode(c().pluginResponseType(method), res);
      };
    const event =
      <Req>(method: PluginMethod, fn: ((req: Req) => Awaitable<unknown>) | undefined): MethodHandler =>
      wrap<Req, object>(method, async (req) => {
        await fn?.(req);
        return {};
      });
    type PC = { pod: nri.PodSandbox; container: nri.Container };
    return {
      Configure: wrap<nri.ConfigureRequest, nri.ConfigureResponseIn>('Configure', async (req) => {
        const chosen = await p.configure?.({
          config: req.config,
          runtimeName: req.runtimeName,
          runtimeVersion: req.runtimeVersion,
          registrationTimeoutMs: Number(req.registrationTimeout),
          requestTimeoutMs: Number(req.requestTimeout),
        });
        const events = chosen ?? implementedEvents(p);
        this.log('info', `configured by ${req.runtimeName} ${req.runtimeVersion}, events: ${events.map((e) => EVENT_METHODS[e]).join(',') || 'none'}`);
        setImmediate(() => this.configured());
        // Zero means "all events" to the runtime; handlers the plugin lacks then do nothing.
        return { events: maskOf(events) };
      }),
      Synchronize: wrap<nri.SynchronizeRequest, nri.SynchronizeResponseIn>('Synchronize', async (req) => {
        this.syncPods.push(...req.pods);
        this.syncContainers.push(...req.containers);
        if (req.more) return { more: true, update: [] };
        const pods = this.syncPods;
        const containers = this.syncContainers;
        this.syncPods = [];
        this.syncContainers = [];
        const update = (await p.synchronize?.(pods, containers)) ?? [];
        setImmediate(() => this.synced());
        return { update, more: false };
      }),
      Shutdown: wrap<nri.Empty, object>('Shutdown', async () => {
        await p.shutdown?.();
        setImmediate(() => this.stop());
        return {};
      }),
      RunPodSandbox: event<{ pod: nri.PodSandbox }>('RunPodSandbox', p.runPodSandbox && ((r) => p.runPodSandbox!(r.pod))),
      StopPodSandbox: event<{ pod: nri.PodSandbox }>('StopPodSandbox', p.stopPodSandbox && ((r) => p.stopPodSandbox!(r.pod))),
      RemovePodSandbox: event<{ pod: nri.PodSandbox }>('RemovePodSandbox', p.removePodSandbox && ((r) => p.removePodSandbox!(r.pod))),
      UpdatePodSandbox: event<nri.UpdatePodSandboxRequest>(
        'UpdatePodSandbox',
        p.updatePodSandbox && ((r) => p.updatePodSandbox!(r.pod!, r.overheadLinuxResources, r.linuxResources)),
      ),
      PostUpdatePodSandbox: event<{ pod: nri.PodSandbox }>('PostUpdatePodSandbox', p.postUpdatePodSandbox && ((r) => p.postUpdatePodSandbox!(r.pod))),
      CreateContainer: wrap<PC, nri.CreateContainerResponseIn>('CreateContainer', async (r) => {
        const reply = (await p.createContainer?.(r.pod, r.container)) ?? {};
        return { adjust: reply.adjust, update: reply.update ?? [], evict: reply.evict ?? [] };
      }),
      PostCreateContainer: event<PC>('PostCreateContainer', p.postCreateContainer && ((r) => p.postCreateContainer!(r.pod, r.container))),
      StartContainer: event<PC>('StartContainer', p.startContainer && ((r) => p.startContainer!(r.pod, r.container))),
      PostStartContainer: event<PC>('PostStartContainer', p.postStartContainer && ((r) => p.postStartContainer!(r.pod, r.container))),
      UpdateContainer: wrap<nri.UpdateContainerRequest, nri.UpdateContainerResponseIn>('UpdateContainer', async (r) => {
        const reply = (await p.updateContainer?.(r.pod!, r.container!, r.linuxResources)) ?? {};
        return { update: reply.update ?? [], evict: reply.evict ?? [] };
      }),
      PostUpdateContainer: event<PC>('PostUpdateContainer', p.postUpdateContainer && ((r) => p.postUpdateContainer!(r.pod, r.container))),
      StopContainer: wrap<PC, nri.StopContainerResponseIn>('StopContainer', async (r) => ({ update: (await p.stopContainer?.(r.pod, r.container)) ?? [] })),
      RemoveContainer: event<PC>('RemoveContainer', p.removeContainer && ((r) => p.removeContainer!(r.pod, r.container))),
      // Runtimes of the older API deliver pod and some container events this way.
      StateChange: event<nri.StateChangeEvent>('StateChange', (r) => this.stateChange(r)),
      ValidateContainerAdjustment: wrap<nri.ValidateContainerAdjustmentRequest, nri.ValidateContainerAdjustmentResponseIn>(
        'ValidateContainerAdjustment',
        async (r) => {
          try {
            const reason = await p.validateContainerAdjustment?.(r);
            return reason ? { reject: true, reason } : { reject: false };
          } catch (err) {
            return { reject: true, reason: (err as Error).message };
          }
        },
      ),
    };
  }

  private async stateChange(ev: nri.StateChangeEvent): Promise<void> {
    const p = this.plugin;
    const pod = ev.pod!;
    const ctr = ev.container!;
    switch (ev.event as EventName) {
      case 'RUN_POD_SANDBOX':
        return p.runPodSandbox?.(pod);
      case 'STOP_POD_SANDBOX':
        return p.stopPodSandbox?.(pod);
      case 'REMOVE_POD_SANDBOX':
        return p.removePodSandbox?.(pod);
      case 'POST_UPDATE_POD_SANDBOX':
        return p.postUpdatePodSandbox?.(pod);
      case 'POST_CREATE_CONTAINER':
        return p.postCreateContainer?.(pod, ctr);
      case 'START_CONTAINER':
        return p.startContainer?.(pod, ctr);
      case 'POST_START_CONTAINER':
        return p.postStartContainer?.(pod, ctr);
      case 'POST_UPDATE_CONTAINER':
        return p.postUpdateContainer?.(pod, ctr);
      case 'REMOVE_CONTAINER':
        return p.removeContainer?.(pod, ctr);
      default:
        this.log('warn', `unexpected StateChange event ${String(ev.event)}`);
    }
  }
}
