// Original file: proto/runtime/v1/api.proto


export interface PortForwardResponse {
  'url'?: (string);
}

export interface PortForwardResponse__Output {
  'url': (string);
}
