// Original file: proto/nri/api.proto


export interface OptionalString {
  'value'?: (string);
}

export interface OptionalString__Output {
  'value': (string);
}
