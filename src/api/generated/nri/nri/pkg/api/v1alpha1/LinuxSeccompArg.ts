// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface LinuxSeccompArg {
  'index'?: (number);
  'value'?: (number | string | Long);
  'valueTwo'?: (number | string | Long);
  'op'?: (string);
}

export interface LinuxSeccompArg__Output {
  'index': (number);
  'value': (string);
  'valueTwo': (string);
  'op': (string);
}
