// Original file: proto/nri/api.proto


export interface Image {
  'name'?: (string);
  'digest'?: (string);
  'configDigest'?: (string);
}

export interface Image__Output {
  'name': (string);
  'digest': (string);
  'configDigest': (string);
}
