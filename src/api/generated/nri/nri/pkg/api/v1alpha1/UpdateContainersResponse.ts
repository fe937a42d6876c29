// Original file: proto/nri/api.proto

import type { ContainerUpdate as _nri_pkg_api_v1alpha1_ContainerUpdate, ContainerUpdate__Output as _nri_pkg_api_v1alpha1_ContainerUpdate__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerUpdate.js';

export interface UpdateContainersResponse {
  'failed'?: (_nri_pkg_api_v1alpha1_ContainerUpdate)[];
}

export interface UpdateContainersResponse__Output {
  'failed': (_nri_pkg_api_v1alpha1_ContainerUpdate__Output)[];
}
