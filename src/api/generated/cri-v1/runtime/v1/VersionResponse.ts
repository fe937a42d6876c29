// Original file: proto/runtime/v1/api.proto


export interface VersionResponse {
  'version'?: (string);
  'runtimeName'?: (string);
  'runtimeVersion'?: (string);
  'runtimeApiVersion'?: (string);
}

export interface VersionResponse__Output {
  'version': (string);
  'runtimeName': (string);
  'runtimeVersion': (string);
  'runtimeApiVersion': (string);
}
