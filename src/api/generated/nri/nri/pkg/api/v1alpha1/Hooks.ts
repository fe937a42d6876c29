// Original file: proto/nri/api.proto

import type { Hook as _nri_pkg_api_v1alpha1_Hook, Hook__Output as _nri_pkg_api_v1alpha1_Hook__Output } from '../../../../nri/pkg/api/v1alpha1/Hook.js';

export interface Hooks {
  'prestart'?: (_nri_pkg_api_v1alpha1_Hook)[];
  'createRuntime'?: (_nri_pkg_api_v1alpha1_Hook)[];
  'createContainer'?: (_nri_pkg_api_v1alpha1_Hook)[];
  'startContainer'?: (_nri_pkg_api_v1alpha1_Hook)[];
  'poststart'?: (_nri_pkg_api_v1alpha1_Hook)[];
  'poststop'?: (_nri_pkg_api_v1alpha1_Hook)[];
}

export interface Hooks__Output {
  'prestart': (_nri_pkg_api_v1alpha1_Hook__Output)[];
  'createRuntime': (_nri_pkg_api_v1alpha1_Hook__Output)[];
  'createContainer': (_nri_pkg_api_v1alpha1_Hook__Output)[];
  'startContainer': (_nri_pkg_api_v1alpha1_Hook__Output)[];
  'poststart': (_nri_pkg_api_v1alpha1_Hook__Output)[];
  'poststop': (_nri_pkg_api_v1alpha1_Hook__Output)[];
}
