// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface LinuxPids {
  'limit'?: (number | string | Long);
}

export interface LinuxPids__Output {
  'limit': (string);
}
