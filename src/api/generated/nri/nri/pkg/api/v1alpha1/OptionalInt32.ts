// Original file: proto/nri/api.proto


export interface OptionalInt32 {
  'value'?: (number);
}

export interface OptionalInt32__Output {
  'value': (number);
}
