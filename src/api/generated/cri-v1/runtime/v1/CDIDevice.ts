// Original file: proto/runtime/v1/api.proto


export interface CDIDevice {
  'name'?: (string);
}

export interface CDIDevice__Output {
  'name': (string);
}
