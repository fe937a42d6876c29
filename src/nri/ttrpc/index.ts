export * from './constants.js';
export * from './errors.js';
export * from './codec.js';
export { loadEnvelopes, type Envelopes } from './envelope.js';
export { TtrpcClient, type CallOptions } from './client.js';
export { TtrpcServer, type CallContext, type MethodHandler, type ServiceHandlers } from './server.js';
