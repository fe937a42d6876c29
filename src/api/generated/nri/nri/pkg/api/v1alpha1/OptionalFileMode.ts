// Original file: proto/nri/api.proto


export interface OptionalFileMode {
  'value'?: (number);
}

export interface OptionalFileMode__Output {
  'value': (number);
}
