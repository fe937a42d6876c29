// Original file: proto/runtime/v1/api.proto

export const CgroupDriver = {
  SYSTEMD: 'SYSTEMD',
  CGROUPFS: 'CGROUPFS',
} as const;

export type CgroupDriver =
  | 'SYSTEMD'
  | 0
  | 'CGROUPFS'
  | 1

export type CgroupDriver__Output = typeof CgroupDriver[keyof typeof CgroupDriver]
