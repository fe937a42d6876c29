// Original file: proto/nri/api.proto

import type { OptionalFileMode as _nri_pkg_api_v1alpha1_OptionalFileMode, OptionalFileMode__Output as _nri_pkg_api_v1alpha1_OptionalFileMode__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalFileMode.js';
import type { OptionalUInt32 as _nri_pkg_api_v1alpha1_OptionalUInt32, OptionalUInt32__Output as _nri_pkg_api_v1alpha1_OptionalUInt32__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalUInt32.js';
import type { Long } from '@grpc/proto-loader';

export interface LinuxDevice {
  'path'?: (string);
  'type'?: (string);
  'major'?: (number | string | Long);
  'minor'?: (number | string | Long);
  'fileMode'?: (_nri_pkg_api_v1alpha1_OptionalFileMode | null);
  'uid'?: (_nri_pkg_api_v1alpha1_OptionalUInt32 | null);
  'gid'?: (_nri_pkg_api_v1alpha1_OptionalUInt32 | null);
}

export interface LinuxDevice__Output {
  'path': (string);
  'type': (string);
  'major': (string);
  'minor': (string);
  'fileMode': (_nri_pkg_api_v1alpha1_OptionalFileMode__Output | null);
  'uid': (_nri_pkg_api_v1alpha1_OptionalUInt32__Output | null);
  'gid': (_nri_pkg_api_v1alpha1_OptionalUInt32__Output | null);
}
