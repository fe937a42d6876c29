export * from './constants.js';
export * from './status.js';
export * from './resize.js';
export * from './handshake.js';
