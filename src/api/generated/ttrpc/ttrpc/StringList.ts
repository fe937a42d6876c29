// Original file: proto/ttrpc/ttrpc.proto


export interface StringList {
  'list'?: (string)[];
}

export interface StringList__Output {
  'list': (string)[];
}
