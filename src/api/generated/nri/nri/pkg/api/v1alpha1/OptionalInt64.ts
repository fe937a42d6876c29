// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface OptionalInt64 {
  'value'?: (number | string | Long);
}

export interface OptionalInt64__Output {
  'value': (string);
}
