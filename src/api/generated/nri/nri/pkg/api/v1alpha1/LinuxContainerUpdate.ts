// Original file: proto/nri/api.proto

import type { LinuxResources as _nri_pkg_api_v1alpha1_LinuxResources, LinuxResources__Output as _nri_pkg_api_v1alpha1_LinuxResources__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxResources.js';

export interface LinuxContainerUpdate {
  'resources'?: (_nri_pkg_api_v1alpha1_LinuxResources | null);
}

export interface LinuxContainerUpdate__Output {
  'resources': (_nri_pkg_api_v1alpha1_LinuxResources__Output | null);
}
