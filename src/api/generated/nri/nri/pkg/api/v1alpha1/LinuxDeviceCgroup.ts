// Original file: proto/nri/api.proto

import type { OptionalInt64 as _nri_pkg_api_v1alpha1_OptionalInt64, OptionalInt64__Output as _nri_pkg_api_v1alpha1_OptionalInt64__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalInt64.js';

export interface LinuxDeviceCgroup {
  'allow'?: (boolean);
  'type'?: (string);
  'major'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'minor'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'access'?: (string);
}

export interface LinuxDeviceCgroup__Output {
  'allow': (boolean);
  'type': (string);
  'major': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'minor': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'access': (string);
}
