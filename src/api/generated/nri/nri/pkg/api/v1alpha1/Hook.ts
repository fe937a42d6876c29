// Original file: proto/nri/api.proto

import type { OptionalInt as _nri_pkg_api_v1alpha1_OptionalInt, OptionalInt__Output as _nri_pkg_api_v1alpha1_OptionalInt__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalInt.js';

export interface Hook {
  'path'?: (string);
  'args'?: (string)[];
  'env'?: (string)[];
  'timeout'?: (_nri_pkg_api_v1alpha1_OptionalInt | null);
}

export interface Hook__Output {
  'path': (string);
  'args': (string)[];
  'env': (string)[];
  'timeout': (_nri_pkg_api_v1alpha1_OptionalInt__Output | null);
}
