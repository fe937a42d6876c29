// Original file: proto/nri/api.proto


export interface ConfigureResponse {
  'events'?: (number);
}

export interface ConfigureResponse__Output {
  'events': (number);
}
