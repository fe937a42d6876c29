// Original file: proto/nri/api.proto


export interface OptionalUInt32 {
  'value'?: (number);
}

export interface OptionalUInt32__Output {
  'value': (number);
}
