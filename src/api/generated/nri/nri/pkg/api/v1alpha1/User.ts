// Original file: proto/nri/api.proto


export interface User {
  'uid'?: (number);
  'gid'?: (number);
  'additionalGids'?: (number)[];
}

export interface User__Output {
  'uid': (number);
  'gid': (number);
  'additionalGids': (number)[];
}
