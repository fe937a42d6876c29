// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface OptionalUInt64 {
  'value'?: (number | string | Long);
}

export interface OptionalUInt64__Output {
  'value': (string);
}
