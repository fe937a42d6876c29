// Original file: proto/nri/api.proto


export interface CompoundFieldOwners {
  'owners'?: ({[key: string]: string});
}

export interface CompoundFieldOwners__Output {
  'owners': ({[key: string]: string});
}
