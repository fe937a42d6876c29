// Original file: proto/nri/api.proto

import type { OptionalUInt32 as _nri_pkg_api_v1alpha1_OptionalUInt32, OptionalUInt32__Output as _nri_pkg_api_v1alpha1_OptionalUInt32__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalUInt32.js';
import type { LinuxSyscall as _nri_pkg_api_v1alpha1_LinuxSyscall, LinuxSyscall__Output as _nri_pkg_api_v1alpha1_LinuxSyscall__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxSyscall.js';

export interface LinuxSeccomp {
  'defaultAction'?: (string);
  'defaultErrno'?: (_nri_pkg_api_v1alpha1_OptionalUInt32 | null);
  'architectures'?: (string)[];
  'flags'?: (string)[];
  'listenerPath'?: (string);
  'listenerMetadata'?: (string);
  'syscalls'?: (_nri_pkg_api_v1alpha1_LinuxSyscall)[];
}

export interface LinuxSeccomp__Output {
  'defaultAction': (string);
  'defaultErrno': (_nri_pkg_api_v1alpha1_OptionalUInt32__Output | null);
  'architectures': (string)[];
  'flags': (string)[];
  'listenerPath': (string);
  'listenerMetadata': (string);
  'syscalls': (_nri_pkg_api_v1alpha1_LinuxSyscall__Output)[];
}
