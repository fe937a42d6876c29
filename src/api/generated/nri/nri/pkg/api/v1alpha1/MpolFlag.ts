// Original file: proto/nri/api.proto

export const MpolFlag = {
  MPOL_F_STATIC_NODES: 'MPOL_F_STATIC_NODES',
  MPOL_F_RELATIVE_NODES: 'MPOL_F_RELATIVE_NODES',
  MPOL_F_NUMA_BALANCING: 'MPOL_F_NUMA_BALANCING',
} as const;

export type MpolFlag =
  | 'MPOL_F_STATIC_NODES'
  | 0
  | 'MPOL_F_RELATIVE_NODES'
  | 1
  | 'MPOL_F_NUMA_BALANCING'
  | 2

export type MpolFlag__Output = typeof MpolFlag[keyof typeof MpolFlag]
