// Original file: proto/runtime/v1/api.proto

import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value.js';
import type { Long } from '@grpc/proto-loader';

export interface WindowsProcessUsage {
  'timestamp'?: (number | string | Long);
  'processCount'?: (_runtime_v1_UInt64Value | null);
}

export interface WindowsProcessUsage__Output {
  'timestamp': (string);
  'processCount': (_runtime_v1_UInt64Value__Output | null);
}
