// Original file: proto/nri/api.proto

import type { OptionalUInt32 as _nri_pkg_api_v1alpha1_OptionalUInt32, OptionalUInt32__Output as _nri_pkg_api_v1alpha1_OptionalUInt32__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalUInt32.js';
import type { LinuxSeccompArg as _nri_pkg_api_v1alpha1_LinuxSeccompArg, LinuxSeccompArg__Output as _nri_pkg_api_v1alpha1_LinuxSeccompArg__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxSeccompArg.js';

export interface LinuxSyscall {
  'names'?: (string)[];
  'action'?: (string);
  'errnoRet'?: (_nri_pkg_api_v1alpha1_OptionalUInt32 | null);
  'args'?: (_nri_pkg_api_v1alpha1_LinuxSeccompArg)[];
}

export interface LinuxSyscall__Output {
  'names': (string)[];
  'action': (string);
  'errnoRet': (_nri_pkg_api_v1alpha1_OptionalUInt32__Output | null);
  'args': (_nri_pkg_api_v1alpha1_LinuxSeccompArg__Output)[];
}
