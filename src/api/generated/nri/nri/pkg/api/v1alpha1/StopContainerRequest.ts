// Original file: proto/nri/api.proto

import type { PodSandbox as _nri_pkg_api_v1alpha1_PodSandbox, PodSandbox__Output as _nri_pkg_api_v1alpha1_PodSandbox__Output } from '../../../../nri/pkg/api/v1alpha1/PodSandbox.js';
import type { Container as _nri_pkg_api_v1alpha1_Container, Container__Output as _nri_pkg_api_v1alpha1_Container__Output } from '../../../../nri/pkg/api/v1alpha1/Container.js';

export interface StopContainerRequest {
  'pod'?: (_nri_pkg_api_v1alpha1_PodSandbox | null);
  'container'?: (_nri_pkg_api_v1alpha1_Container | null);
}

export interface StopContainerRequest__Output {
  'pod': (_nri_pkg_api_v1alpha1_PodSandbox__Output | null);
  'container': (_nri_pkg_api_v1alpha1_Container__Output | null);
}
