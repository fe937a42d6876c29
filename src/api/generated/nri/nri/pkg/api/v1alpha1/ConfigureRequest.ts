// Original file: proto/nri/api.proto

import type { Long } from '@grpc/proto-loader';

export interface ConfigureRequest {
  'config'?: (string);
  'runtimeName'?: (string);
  'runtimeVersion'?: (string);
  'registrationTimeout'?: (number | string | Long);
  'requestTimeout'?: (number | string | Long);
  'NRIVersion'?: (string);
}

export interface ConfigureRequest__Output {
  'config': (string);
  'runtimeName': (string);
  'runtimeVersion': (string);
  'registrationTimeout': (string);
  'requestTimeout': (string);
  'NRIVersion': (string);
}
