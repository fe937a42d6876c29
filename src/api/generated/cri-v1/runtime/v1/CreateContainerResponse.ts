// Original file: proto/runtime/v1/api.proto


export interface CreateContainerResponse {
  'containerId'?: (string);
}

export interface CreateContainerResponse__Output {
  'containerId': (string);
}
