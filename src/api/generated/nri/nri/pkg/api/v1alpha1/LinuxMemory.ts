// Original file: proto/nri/api.proto

import type { OptionalInt64 as _nri_pkg_api_v1alpha1_OptionalInt64, OptionalInt64__Output as _nri_pkg_api_v1alpha1_OptionalInt64__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalInt64.js';
import type { OptionalUInt64 as _nri_pkg_api_v1alpha1_OptionalUInt64, OptionalUInt64__Output as _nri_pkg_api_v1alpha1_OptionalUInt64__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalUInt64.js';
import type { OptionalBool as _nri_pkg_api_v1alpha1_OptionalBool, OptionalBool__Output as _nri_pkg_api_v1alpha1_OptionalBool__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalBool.js';

export interface LinuxMemory {
  'limit'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'reservation'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'swap'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'kernel'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'kernelTcp'?: (_nri_pkg_api_v1alpha1_OptionalInt64 | null);
  'swappiness'?: (_nri_pkg_api_v1alpha1_OptionalUInt64 | null);
  'disableOomKiller'?: (_nri_pkg_api_v1alpha1_OptionalBool | null);
  'useHierarchy'?: (_nri_pkg_api_v1alpha1_OptionalBool | null);
}

export interface LinuxMemory__Output {
  'limit': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'reservation': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'swap': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'kernel': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'kernelTcp': (_nri_pkg_api_v1alpha1_OptionalInt64__Output | null);
  'swappiness': (_nri_pkg_api_v1alpha1_OptionalUInt64__Output | null);
  'disableOomKiller': (_nri_pkg_api_v1alpha1_OptionalBool__Output | null);
  'useHierarchy': (_nri_pkg_api_v1alpha1_OptionalBool__Output | null);
}
