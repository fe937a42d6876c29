// Original file: proto/nri/api.proto

import type { LinuxMemory as _nri_pkg_api_v1alpha1_LinuxMemory, LinuxMemory__Output as _nri_pkg_api_v1alpha1_LinuxMemory__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxMemory.js';
import type { LinuxCPU as _nri_pkg_api_v1alpha1_LinuxCPU, LinuxCPU__Output as _nri_pkg_api_v1alpha1_LinuxCPU__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxCPU.js';
import type { HugepageLimit as _nri_pkg_api_v1alpha1_HugepageLimit, HugepageLimit__Output as _nri_pkg_api_v1alpha1_HugepageLimit__Output } from '../../../../nri/pkg/api/v1alpha1/HugepageLimit.js';
import type { OptionalString as _nri_pkg_api_v1alpha1_OptionalString, OptionalString__Output as _nri_pkg_api_v1alpha1_OptionalString__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalString.js';
import type { LinuxDeviceCgroup as _nri_pkg_api_v1alpha1_LinuxDeviceCgroup, LinuxDeviceCgroup__Output as _nri_pkg_api_v1alpha1_LinuxDeviceCgroup__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxDeviceCgroup.js';
import type { LinuxPids as _nri_pkg_api_v1alpha1_LinuxPids, LinuxPids__Output as _nri_pkg_api_v1alpha1_LinuxPids__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxPids.js';

export interface LinuxResources {
  'memory'?: (_nri_pkg_api_v1alpha1_LinuxMemory | null);
  'cpu'?: (_nri_pkg_api_v1alpha1_LinuxCPU | null);
  'hugepageLimits'?: (_nri_pkg_api_v1alpha1_HugepageLimit)[];
  'blockioClass'?: (_nri_pkg_api_v1alpha1_OptionalString | null);
  'rdtClass'?: (_nri_pkg_api_v1alpha1_OptionalString | null);
  'unified'?: ({[key: string]: string});
  'devices'?: (_nri_pkg_api_v1alpha1_LinuxDeviceCgroup)[];
  'pids'?: (_nri_pkg_api_v1alpha1_LinuxPids | null);
}

export interface LinuxResources__Output {
  'memory': (_nri_pkg_api_v1alpha1_LinuxMemory__Output | null);
  'cpu': (_nri_pkg_api_v1alpha1_LinuxCPU__Output | null);
  'hugepageLimits': (_nri_pkg_api_v1alpha1_HugepageLimit__Output)[];
  'blockioClass': (_nri_pkg_api_v1alpha1_OptionalString__Output | null);
  'rdtClass': (_nri_pkg_api_v1alpha1_OptionalString__Output | null);
  'unified': ({[key: string]: string});
  'devices': (_nri_pkg_api_v1alpha1_LinuxDeviceCgroup__Output)[];
  'pids': (_nri_pkg_api_v1alpha1_LinuxPids__Output | null);
}
