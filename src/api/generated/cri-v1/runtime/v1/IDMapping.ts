// Original file: proto/runtime/v1/api.proto


export interface IDMapping {
  'hostId'?: (number);
  'containerId'?: (number);
  'length'?: (number);
}

export interface IDMapping__Output {
  'hostId': (number);
  'containerId': (number);
  'length': (number);
}
