// Original file: proto/nri/api.proto

import type { LinuxContainerUpdate as _nri_pkg_api_v1alpha1_LinuxContainerUpdate, LinuxContainerUpdate__Output as _nri_pkg_api_v1alpha1_LinuxContainerUpdate__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxContainerUpdate.js';

export interface ContainerUpdate {
  'containerId'?: (string);
  'linux'?: (_nri_pkg_api_v1alpha1_LinuxContainerUpdate | null);
  'ignoreFailure'?: (boolean);
}

export interface ContainerUpdate__Output {
  'containerId': (string);
  'linux': (_nri_pkg_api_v1alpha1_LinuxContainerUpdate__Output | null);
  'ignoreFailure': (boolean);
}
