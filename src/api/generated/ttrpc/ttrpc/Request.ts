// Original file: proto/ttrpc/ttrpc.proto

import type { KeyValue as _ttrpc_KeyValue, KeyValue__Output as _ttrpc_KeyValue__Output } from '../ttrpc/KeyValue.js';
import type { Long } from '@grpc/proto-loader';

export interface Request {
  'service'?: (string);
  'method'?: (string);
  'payload'?: (Buffer | Uint8Array | string);
  'timeoutNano'?: (number | string | Long);
  'metadata'?: (_ttrpc_KeyValue)[];
}

export interface Request__Output {
  'service': (string);
  'method': (string);
  'payload': (Buffer);
  'timeoutNano': (string);
  'metadata': (_ttrpc_KeyValue__Output)[];
}
