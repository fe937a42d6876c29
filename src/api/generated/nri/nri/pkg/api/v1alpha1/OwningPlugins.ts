// Original file: proto/nri/api.proto

import type { FieldOwners as _nri_pkg_api_v1alpha1_FieldOwners, FieldOwners__Output as _nri_pkg_api_v1alpha1_FieldOwners__Output } from '../../../../nri/pkg/api/v1alpha1/FieldOwners.js';

export interface OwningPlugins {
  'owners'?: ({[key: string]: _nri_pkg_api_v1alpha1_FieldOwners});
}

export interface OwningPlugins__Output {
  'owners': ({[key: string]: _nri_pkg_api_v1alpha1_FieldOwners__Output});
}
