// Original file: proto/nri/api.proto

import type { CompoundFieldOwners as _nri_pkg_api_v1alpha1_CompoundFieldOwners, CompoundFieldOwners__Output as _nri_pkg_api_v1alpha1_CompoundFieldOwners__Output } from '../../../../nri/pkg/api/v1alpha1/CompoundFieldOwners.js';

export interface FieldOwners {
  'simple'?: ({[key: number]: string});
  'compound'?: ({[key: number]: _nri_pkg_api_v1alpha1_CompoundFieldOwners});
}

export interface FieldOwners__Output {
  'simple': ({[key: number]: string});
  'compound': ({[key: number]: _nri_pkg_api_v1alpha1_CompoundFieldOwners__Output});
}
