// Original file: proto/runtime/v1/api.proto

export const SupplementalGroupsPolicy = {
  Merge: 'Merge',
  Strict: 'Strict',
} as const;

export type SupplementalGroupsPolicy =
  | 'Merge'
  | 0
  | 'Strict'
  | 1

export type SupplementalGroupsPolicy__Output = typeof SupplementalGroupsPolicy[keyof typeof SupplementalGroupsPolicy]
