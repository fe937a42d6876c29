// Original file: proto/nri/api.proto


export interface Mount {
  'destination'?: (string);
  'type'?: (string);
  'source'?: (string);
  'options'?: (string)[];
}

export interface Mount__Output {
  'destination': (string);
  'type': (string);
  'source': (string);
  'options': (string)[];
}
