// Original file: proto/nri/api.proto

import type { OptionalString as _nri_pkg_api_v1alpha1_OptionalString, OptionalString__Output as _nri_pkg_api_v1alpha1_OptionalString__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalString.js';
import type { OptionalRepeatedString as _nri_pkg_api_v1alpha1_OptionalRepeatedString, OptionalRepeatedString__Output as _nri_pkg_api_v1alpha1_OptionalRepeatedString__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalRepeatedString.js';
import type { OptionalBool as _nri_pkg_api_v1alpha1_OptionalBool, OptionalBool__Output as _nri_pkg_api_v1alpha1_OptionalBool__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalBool.js';

export interface LinuxRdt {
  'closId'?: (_nri_pkg_api_v1alpha1_OptionalString | null);
  'schemata'?: (_nri_pkg_api_v1alpha1_OptionalRepeatedString | null);
  'enableMonitoring'?: (_nri_pkg_api_v1alpha1_OptionalBool | null);
  'remove'?: (boolean);
}

export interface LinuxRdt__Output {
  'closId': (_nri_pkg_api_v1alpha1_OptionalString__Output | null);
  'schemata': (_nri_pkg_api_v1alpha1_OptionalRepeatedString__Output | null);
  'enableMonitoring': (_nri_pkg_api_v1alpha1_OptionalBool__Output | null);
  'remove': (boolean);
}
