// Original file: proto/nri/api.proto

import type { LinuxNamespace as _nri_pkg_api_v1alpha1_LinuxNamespace, LinuxNamespace__Output as _nri_pkg_api_v1alpha1_LinuxNamespace__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxNamespace.js';
import type { LinuxDevice as _nri_pkg_api_v1alpha1_LinuxDevice, LinuxDevice__Output as _nri_pkg_api_v1alpha1_LinuxDevice__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxDevice.js';
import type { LinuxResources as _nri_pkg_api_v1alpha1_LinuxResources, LinuxResources__Output as _nri_pkg_api_v1alpha1_LinuxResources__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxResources.js';
import type { OptionalInt as _nri_pkg_api_v1alpha1_OptionalInt, OptionalInt__Output as _nri_pkg_api_v1alpha1_OptionalInt__Output } from '../../../../nri/pkg/api/v1alpha1/OptionalInt.js';
import type { LinuxIOPriority as _nri_pkg_api_v1alpha1_LinuxIOPriority, LinuxIOPriority__Output as _nri_pkg_api_v1alpha1_LinuxIOPriority__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxIOPriority.js';
import type { SecurityProfile as _nri_pkg_api_v1alpha1_SecurityProfile, SecurityProfile__Output as _nri_pkg_api_v1alpha1_SecurityProfile__Output } from '../../../../nri/pkg/api/v1alpha1/SecurityProfile.js';
import type { LinuxSeccomp as _nri_pkg_api_v1alpha1_LinuxSeccomp, LinuxSeccomp__Output as _nri_pkg_api_v1alpha1_LinuxSeccomp__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxSeccomp.js';
import type { LinuxNetDevice as _nri_pkg_api_v1alpha1_LinuxNetDevice, LinuxNetDevice__Output as _nri_pkg_api_v1alpha1_LinuxNetDevice__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxNetDevice.js';
import type { LinuxScheduler as _nri_pkg_api_v1alpha1_LinuxScheduler, LinuxScheduler__Output as _nri_pkg_api_v1alpha1_LinuxScheduler__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxScheduler.js';
import type { LinuxRdt as _nri_pkg_api_v1alpha1_LinuxRdt, LinuxRdt__Output as _nri_pkg_api_v1alpha1_LinuxRdt__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxRdt.js';

export interface LinuxContainer {
  'namespaces'?: (_nri_pkg_api_v1alpha1_LinuxNamespace)[];
  'devices'?: (_nri_pkg_api_v1alpha1_LinuxDevice)[];
  'resources'?: (_nri_pkg_api_v1alpha1_LinuxResources | null);
  'oomScoreAdj'?: (_nri_pkg_api_v1alpha1_OptionalInt | null);
  'cgroupsPath'?: (string);
  'ioPriority'?: (_nri_pkg_api_v1alpha1_LinuxIOPriority | null);
  'seccompProfile'?: (_nri_pkg_api_v1alpha1_SecurityProfile | null);
  'seccompPolicy'?: (_nri_pkg_api_v1alpha1_LinuxSeccomp | null);
  'sysctl'?: ({[key: string]: string});
  'netDevices'?: ({[key: string]: _nri_pkg_api_v1alpha1_LinuxNetDevice});
  'scheduler'?: (_nri_pkg_api_v1alpha1_LinuxScheduler | null);
  'rdt'?: (_nri_pkg_api_v1alpha1_LinuxRdt | null);
}

export interface LinuxContainer__Output {
  'namespaces': (_nri_pkg_api_v1alpha1_LinuxNamespace__Output)[];
  'devices': (_nri_pkg_api_v1alpha1_LinuxDevice__Output)[];
  'resources': (_nri_pkg_api_v1alpha1_LinuxResources__Output | null);
  'oomScoreAdj': (_nri_pkg_api_v1alpha1_OptionalInt__Output | null);
  'cgroupsPath': (string);
  'ioPriority': (_nri_pkg_api_v1alpha1_LinuxIOPriority__Output | null);
  'seccompProfile': (_nri_pkg_api_v1alpha1_SecurityProfile__Output | null);
  'seccompPolicy': (_nri_pkg_api_v1alpha1_LinuxSeccomp__Output | null);
  'sysctl': ({[key: string]: string});
  'netDevices': ({[key: string]: _nri_pkg_api_v1alpha1_LinuxNetDevice__Output});
  'scheduler': (_nri_pkg_api_v1alpha1_LinuxScheduler__Output | null);
  'rdt': (_nri_pkg_api_v1alpha1_LinuxRdt__Output | null);
}
