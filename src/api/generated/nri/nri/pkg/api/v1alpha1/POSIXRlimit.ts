// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface POSIXRlimit {
  'type'?: (string);
  'hard'?: (number | string | Long);
  'soft'?: (number | string | Long);
}

export interface POSIXRlimit__Output {
  'type': (string);
  'hard': (string);
  'soft': (string);
}
