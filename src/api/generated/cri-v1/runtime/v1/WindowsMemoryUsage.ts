// Original file: proto/runtime/v1/api.proto

import type { UInt64Value as _runtime_v1_UInt64Value, UInt64Value__Output as _runtime_v1_UInt64Value__Output } from '../../runtime/v1/UInt64Value.js';
import type { Long } from '@grpc/proto-loader';

export interface WindowsMemoryUsage {
  'timestamp'?: (number | string | Long);
  'workingSetBytes'?: (_runtime_v1_UInt64Value | null);
  'availableBytes'?: (_runtime_v1_UInt64Value | null);
  'pageFaults'?: (_runtime_v1_UInt64Value | null);
  'commitMemoryBytes'?: (_runtime_v1_UInt64Value | null);
}

export interface WindowsMemoryUsage__Output {
  'timestamp': (string);
  'workingSetBytes': (_runtime_v1_UInt64Value__Output | null);
  'availableBytes': (_runtime_v1_UInt64Value__Output | null);
  'pageFaults': (_runtime_v1_UInt64Value__Output | null);
  'commitMemoryBytes': (_runtime_v1_UInt64Value__Output | null);
}
