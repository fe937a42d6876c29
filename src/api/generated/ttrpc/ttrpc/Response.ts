// Original file: proto/ttrpc/ttrpc.proto

import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from '../google/rpc/Status.js';

export interface Response {
  'status'?: (_google_rpc_Status | null);
  'payload'?: (Buffer | Uint8Array | string);
}

export interface Response__Output {
  'status': (_google_rpc_Status__Output | null);
  'payload': (Buffer);
}
