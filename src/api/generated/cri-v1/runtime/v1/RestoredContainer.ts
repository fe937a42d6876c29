// Original file: proto/runtime/v1/api.proto


export interface RestoredContainer {
  'name'?: (string);
  'containerId'?: (string);
}

export interface RestoredContainer__Output {
  'name': (string);
  'containerId': (string);
}
