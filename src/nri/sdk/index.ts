export { Stub, implementedEvents, type Plugin, type StubOptions, type ConfigureInfo, type CreateContainerReply, type UpdateContainerReply } from './stub.js';
export { AdjustmentBuilder, adjustment } from './adjustment.js';
export type { EventName } from '../adaptation/events.js';
export type * as nri from '../../api/nri.js';
export { runPlugin, isMain } from './run.js';
export { effectiveAnnotation } from '../annotations.js';
