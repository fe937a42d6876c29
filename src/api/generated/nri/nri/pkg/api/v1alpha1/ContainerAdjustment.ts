// Original file: proto/nri/api.proto

import type { Mount as _nri_pkg_api_v1alpha1_Mount, Mount__Output as _nri_pkg_api_v1alpha1_Mount__Output } from '../../../../nri/pkg/api/v1alpha1/Mount.js';
import type { KeyValue as _nri_pkg_api_v1alpha1_KeyValue, KeyValue__Output as _nri_pkg_api_v1alpha1_KeyValue__Output } from '../../../../nri/pkg/api/v1alpha1/KeyValue.js';
import type { Hooks as _nri_pkg_api_v1alpha1_Hooks, Hooks__Output as _nri_pkg_api_v1alpha1_Hooks__Output } from '../../../../nri/pkg/api/v1alpha1/Hooks.js';
import type { LinuxContainerAdjustment as _nri_pkg_api_v1alpha1_LinuxContainerAdjustment, LinuxContainerAdjustment__Output as _nri_pkg_api_v1alpha1_LinuxContainerAdjustment__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxContainerAdjustment.js';
import type { POSIXRlimit as _nri_pkg_api_v1alpha1_POSIXRlimit, POSIXRlimit__Output as _nri_pkg_api_v1alpha1_POSIXRlimit__Output } from '../../../../nri/pkg/api/v1alpha1/POSIXRlimit.js';
import type { CDIDevice as _nri_pkg_api_v1alpha1_CDIDevice, CDIDevice__Output as _nri_pkg_api_v1alpha1_CDIDevice__Output } from '../../../../nri/pkg/api/v1alpha1/CDIDevice.js';

export interface ContainerAdjustment {
  'annotations'?: ({[key: string]: string});
  'mounts'?: (_nri_pkg_api_v1alpha1_Mount)[];
  'env'?: (_nri_pkg_api_v1alpha1_KeyValue)[];
  'hooks'?: (_nri_pkg_api_v1alpha1_Hooks | null);
  'linux'?: (_nri_pkg_api_v1alpha1_LinuxContainerAdjustment | null);
  'rlimits'?: (_nri_pkg_api_v1alpha1_POSIXRlimit)[];
  'CDIDevices'?: (_nri_pkg_api_v1alpha1_CDIDevice)[];
  'args'?: (string)[];
}

export interface ContainerAdjustment__Output {
  'annotations': ({[key: string]: string});
  'mounts': (_nri_pkg_api_v1alpha1_Mount__Output)[];
  'env': (_nri_pkg_api_v1alpha1_KeyValue__Output)[];
  'hooks': (_nri_pkg_api_v1alpha1_Hooks__Output | null);
  'linux': (_nri_pkg_api_v1alpha1_LinuxContainerAdjustment__Output | null);
  'rlimits': (_nri_pkg_api_v1alpha1_POSIXRlimit__Output)[];
  'CDIDevices': (_nri_pkg_api_v1alpha1_CDIDevice__Output)[];
  'args': (string)[];
}
