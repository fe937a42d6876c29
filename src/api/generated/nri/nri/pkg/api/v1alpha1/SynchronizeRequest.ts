// Original file: proto/nri/api.proto

import type { PodSandbox as _nri_pkg_api_v1alpha1_PodSandbox, PodSandbox__Output as _nri_pkg_api_v1alpha1_PodSandbox__Output } from '../../../../nri/pkg/api/v1alpha1/PodSandbox.js';
import type { Container as _nri_pkg_api_v1alpha1_Container, Container__Output as _nri_pkg_api_v1alpha1_Container__Output } from '../../../../nri/pkg/api/v1alpha1/Container.js';

export interface SynchronizeRequest {
  'pods'?: (_nri_pkg_api_v1alpha1_PodSandbox)[];
  'containers'?: (_nri_pkg_api_v1alpha1_Container)[];
  'more'?: (boolean);
}

export interface SynchronizeRequest__Output {
  'pods': (_nri_pkg_api_v1alpha1_PodSandbox__Output)[];
  'containers': (_nri_pkg_api_v1alpha1_Container__Output)[];
  'more': (boolean);
}
