// Original file: proto/nri/api.proto


export interface OptionalRepeatedString {
  'value'?: (string)[];
}

export interface OptionalRepeatedString__Output {
  'value': (string)[];
}
