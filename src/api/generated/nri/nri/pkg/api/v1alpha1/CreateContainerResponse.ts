// Original file: proto/nri/api.proto

import type { ContainerAdjustment as _nri_pkg_api_v1alpha1_ContainerAdjustment, ContainerAdjustment__Output as _nri_pkg_api_v1alpha1_ContainerAdjustment__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerAdjustment.js';
import type { ContainerUpdate as _nri_pkg_api_v1alpha1_ContainerUpdate, ContainerUpdate__Output as _nri_pkg_api_v1alpha1_ContainerUpdate__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerUpdate.js';
import type { ContainerEviction as _nri_pkg_api_v1alpha1_ContainerEviction, ContainerEviction__Output as _nri_pkg_api_v1alpha1_ContainerEviction__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerEviction.js';

export interface CreateContainerResponse {
  'adjust'?: (_nri_pkg_api_v1alpha1_ContainerAdjustment | null);
  'update'?: (_nri_pkg_api_v1alpha1_ContainerUpdate)[];
  'evict'?: (_nri_pkg_api_v1alpha1_ContainerEviction)[];
}

export interface CreateContainerResponse__Output {
  'adjust': (_nri_pkg_api_v1alpha1_ContainerAdjustment__Output | null);
  'update': (_nri_pkg_api_v1alpha1_ContainerUpdate__Output)[];
  'evict': (_nri_pkg_api_v1alpha1_ContainerEviction__Output)[];
}
