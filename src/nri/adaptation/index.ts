// The runtime side of NRI, as the engine uses it.
export {
  Adaptation,
  AdjustmentError,
  PluginError,
  type AdaptationOptions,
  type CreateContainerResult,
  type PluginInfo,
  type SyncState,
  type UpdateContainerResult,
} from './adaptation.js';
export { applyAdjustment, applyResources, type AppliedAdjustment, type AdjustmentLike } from './apply-adjustment.js';
export { discoverPlugins, parsePluginName, type DiscoveredPlugin } from './discovery.js';
export { prettyEvents, type EventName } from './events.js';
export { OwnershipConflictError } from './owners.js';
export type { OciSpec } from './oci-spec.js';
export { ValidationError, type DefaultValidatorConfig } from './validator.js';
export { DEFAULT_PLUGIN_CONFIG_PATH, DEFAULT_PLUGIN_PATH, DEFAULT_REGISTRATION_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_SOCKET_PATH } from '../protocol.js';
export { nriContainerFromOci, nriResourcesFromOci, type ContainerMeta } from './from-oci.js';
