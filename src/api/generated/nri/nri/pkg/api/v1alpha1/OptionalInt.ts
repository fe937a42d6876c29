// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface OptionalInt {
  'value'?: (number | string | Long);
}

export interface OptionalInt__Output {
  'value': (string);
}
