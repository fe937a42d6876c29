// Original file: proto/nri/api.proto


export interface LinuxNamespace {
  'type'?: (string);
  'path'?: (string);
}

export interface LinuxNamespace__Output {
  'type': (string);
  'path': (string);
}
