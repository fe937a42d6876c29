// Original file: proto/nri/api.proto

import type { OptionalUInt64 as _nri_pkg_api_v1alpha1_OptionalUInt64, OptionalUInt64__Output as _nri_pkg_api_v1alpha1_OptionalUInt64__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalUInt64.js';
import type { OptionalInt64 as _nri_pkg_api_v1alpha1_OptionalInt64, OptionalInt64__Output as _nri_pkg_api_v1alpha1_OptionalInt64__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalInt64.js';

export interface LinuxCPU {
  'shares'?: (_nri_pkg_api_v1alpha1_OptionalUInt64 | null);
  'quota'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'period'?: (_nri_pkg_api_v1alpha1_OptionalUInt64 | null);
  'realtimeRuntime'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'realtimePeriod'?: (_nri_pkg_api_v1alpha1_OptionalUInt64 | null);
  'cpus'?: (string);
  'mems'?: (string);
}

export interface LinuxCPU__Output {
  'shares': (_nri_pkg_api_v1alpha1_OptionalUInt64__Output | null);
  'quota': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'period': (_nri_pkg_api_v1alpha1_OptionalUInt64__Output | null);
  'realtimeRuntime': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'realtimePeriod': (_nri_pkg_api_v1alpha1_OptionalUInt64__Output | null);
  'cpus': (string);
  'mems': (string);
}
