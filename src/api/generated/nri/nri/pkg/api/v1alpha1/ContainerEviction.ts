// Original file: proto/nri/api.proto


export interface ContainerEviction {
  'containerId'?: (string);
  'reason'?: (string);
}

export interface ContainerEviction__Output {
  'containerId': (string);
  'reason': (string);
}
