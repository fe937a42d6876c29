// Original file: proto/nri/api.proto

export const MpolMode = {
  MPOL_DEFAULT: 'MPOL_DEFAULT',
  MPOL_PREFERRED: 'MPOL_PREFERRED',
  MPOL_BIND: 'MPOL_BIND',
  MPOL_INTERLEAVE: 'MPOL_INTERLEAVE',
  MPOL_LOCAL: 'MPOL_LOCAL',
  MPOL_PREFERRED_MANY: 'MPOL_PREFERRED_MANY',
  MPOL_WEIGHTED_INTERLEAVE: 'MPOL_WEIGHTED_INTERLEAVE',
} as const;

export type MpolMode =
  | 'MPOL_DEFAULT'
  | 0
  | 'MPOL_PREFERRED'
  | 1
  | 'MPOL_BIND'
  | 2
  | 'MPOL_INTERLEAVE'
  | 3
  | 'MPOL_LOCAL'
  | 4
  | 'MPOL_PREFERRED_MANY'
  | 5
  | 'MPOL_WEIGHTED_INTERLEAVE'
  | 6

export type MpolMode__Output = typeof MpolMode[keyof typeof MpolMode]
