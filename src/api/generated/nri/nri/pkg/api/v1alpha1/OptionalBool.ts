// Original file: proto/nri/api.proto


export interface OptionalBool {
  'value'?: (boolean);
}

export interface OptionalBool__Output {
  'value': (boolean);
}
