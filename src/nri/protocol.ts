// NRI's services and messages on the wire: service names, which request and
// response type every method carries, and a codec for them. Shared by the
// runtime side (adaptation) and the plugin side (sdk).
import type { Type } from 'protobufjs';
import type * as nri from '../api/nri.js';
import { CONVERSION_OPTIONS, loadProtoRoot } from '../api/proto.js';

export const NRI_PACKAGE = 'nri.pkg.api.v1alpha1';
/** Served by plugins, on multiplexed connection 1. */
export const PLUGIN_SERVICE = `${NRI_PACKAGE}.Plugin`;
/** Served by the runtime, on multiplexed connection 2. */
export const RUNTIME_SERVICE = `${NRI_PACKAGE}.Runtime`;
export const HOST_FUNCTIONS_SERVICE = `${NRI_PACKAGE}.HostFunctions`;

/** Environment of pre-launched plugins (the socket is always fd 3). */
export const PLUGIN_NAME_ENV = 'NRI_PLUGIN_NAME';
export const PLUGIN_IDX_ENV = 'NRI_PLUGIN_IDX';
export const PLUGIN_SOCKET_ENV = 'NRI_PLUGIN_SOCKET';

export const DEFAULT_SOCKET_PATH = '/var/run/nri/nri.sock';
export const DEFAULT_PLUGIN_PATH = '/opt/nri/plugins';
export const DEFAULT_PLUGIN_CONFIG_PATH = '/etc/nri/conf.d';
export const DEFAULT_REGISTRATION_TIMEOUT_MS = 5000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 2000;

/** Plugin service methods: [request, response] message types and TS types. */
export interface PluginMethods {
  Configure: [nri.ConfigureRequestIn, nri.ConfigureResponse];
  Synchronize: [nri.SynchronizeRequestIn, nri.SynchronizeResponse];
  Shutdown: [nri.EmptyIn, nri.Empty];
  RunPodSandbox: [nri.RunPodSandboxRequestIn, nri.RunPodSandboxResponse];
  UpdatePodSandbox: [nri.UpdatePodSandboxRequestIn, nri.UpdatePodSandboxResponse];
  PostUpdatePodSandbox: [nri.PostUpdatePodSandboxRequestIn, nri.PostUpdatePodSandboxResponse];
  StopPodSandbox: [nri.StopPodSandboxRequestIn, nri.StopPodSandboxResponse];
  RemovePodSandbox: [nri.RemovePodSandboxRequestIn, nri.RemovePodSandboxResponse];
  CreateContainer: [nri.CreateContainerRequestIn, nri.CreateContainerResponse];
  PostCreateContainer: [nri.PostCreateContainerRequestIn, nri.PostCreateContainerResponse];
  StartContainer: [nri.StartContainerRequestIn, nri.StartContainerResponse];
  PostStartContainer: [nri.PostStartContainerRequestIn, nri.PostStartContainerResponse];
  UpdateContainer: [nri.UpdateContainerRequestIn, nri.UpdateContainerResponse];
  PostUpdateContainer: [nri.PostUpdateContainerRequestIn, nri.PostUpdateContainerResponse];
  StopContainer: [nri.StopContainerRequestIn, nri.StopContainerResponse];
  RemoveContainer: [nri.RemoveContainerRequestIn, nri.RemoveContainerResponse];
  StateChange: [nri.StateChangeEventIn, nri.Empty];
  ValidateContainerAdjustment: [nri.ValidateContainerAdjustmentRequestIn, nri.ValidateContainerAdjustmentResponse];
}
export type PluginMethod = keyof PluginMethods;

export interface RuntimeMethods {
  RegisterPlugin: [nri.RegisterPluginRequestIn, nri.Empty];
  UpdateContainers: [nri.UpdateContainersRequestIn, nri.UpdateContainersResponse];
}
export type RuntimeMethod = keyof RuntimeMethods;

const PLUGIN_TYPES: Record<PluginMethod, [string, string]> = {
  Configure: ['ConfigureRequest', 'ConfigureResponse'],
  Synchronize: ['SynchronizeRequest', 'SynchronizeResponse'],
  Shutdown: ['Empty', 'Empty'],
  RunPodSandbox: ['RunPodSandboxRequest', 'RunPodSandboxResponse'],
  UpdatePodSandbox: ['UpdatePodSandboxRequest', 'UpdatePodSandboxResponse'],
  PostUpdatePodSandbox: ['PostUpdatePodSandboxRequest', 'PostUpdatePodSandboxResponse'],
  StopPodSandbox: ['StopPodSandboxRequest', 'StopPodSandboxResponse'],
  RemovePodSandbox: ['RemovePodSandboxRequest', 'RemovePodSandboxResponse'],
  CreateContainer: ['CreateContainerRequest', 'CreateContainerResponse'],
  PostCreateContainer: ['PostCreateContainerRequest', 'PostCreateContainerResponse'],
  StartContainer: ['StartContainerRequest', 'StartContainerResponse'],
  PostStartContainer: ['PostStartContainerRequest', 'PostStartContainerResponse'],
  UpdateContainer: ['UpdateContainerRequest', 'UpdateContainerResponse'],
  PostUpdateContainer: ['PostUpdateContainerRequest', 'PostUpdateContainerResponse'],
  StopContainer: ['StopContainerRequest', 'StopContainerResponse'],
  RemoveContainer: ['RemoveContainerRequest', 'RemoveContainerResponse'],
  StateChange: ['StateChangeEvent', 'Empty'],
  ValidateContainerAdjustment: ['ValidateContainerAdjustmentRequest', 'ValidateContainerAdjustmentResponse'],
};

const RUNTIME_TYPES: Record<RuntimeMethod, [string, string]> = {
  RegisterPlugin: ['RegisterPluginRequest', 'Empty'],
  UpdateContainers: ['UpdateContainersRequest', 'UpdateContainersResponse'],
};

export const PLUGIN_METHOD_NAMES = Object.keys(PLUGIN_TYPES) as PluginMethod[];

export class NriCodec {
  private readonly types = new Map<string, Type>();

  private constructor(private readonly lookup: (name: string) => Type) {}

  static async load(): Promise<NriCodec> {
    const root = await loadProtoRoot('nri');
    return new NriCodec((name) => root.lookupType(`${NRI_PACKAGE}.${name}`));
  }

  private type(name: string): Type {
    let t = this.types.get(name);
    if (!t) {
      t = this.lookup(name);
      this.types.set(name, t);
    }
    return t;
  }

  encode(typeName: string, obj: object): Uint8Array {
    const t = this.type(typeName);
    return t.encode(t.fromObject(obj as Record<string, unknown>)).finish();
  }

  decode<T>(typeName: string, bytes: Uint8Array): T {
    const t = this.type(typeName);
    return t.toObject(t.decode(bytes), CONVERSION_OPTIONS) as T;
  }

  pluginRequestType(method: PluginMethod): string {
    return PLUGIN_TYPES[method][0];
  }
  pluginResponseType(method: PluginMethod): string {
    return PLUGIN_TYPES[method][1];
  }
  runtimeRequestType(method: RuntimeMethod): string {
    return RUNTIME_TYPES[method][0];
  }
  runtimeResponseType(method: RuntimeMethod): string {
    return RUNTIME_TYPES[method][1];
  }
}

let shared: Promise<NriCodec> | undefined;
export function loadNriCodec(): Promise<NriCodec> {
  shared ??= NriCodec.load();
  return shared;
}
