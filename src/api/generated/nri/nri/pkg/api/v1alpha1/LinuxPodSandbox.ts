// Original file: proto/nri/api.proto

import type { LinuxResources as _nri_pkg_api_v1alpha1_LinuxResources, LinuxResources__Output as _nri_pkg_api_v1alpha1_LinuxResources__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxResources.js';
import type { LinuxNamespace as _nri_pkg_api_v1alpha1_LinuxNamespace, LinuxNamespace__Output as _nri_pkg_api_v1alpha1_LinuxNamespace__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxNamespace.js';

export interface LinuxPodSandbox {
  'podOverhead'?: (_nri_pkg_api_v1alpha1_LinuxResources | null);
  'podResources'?: (_nri_pkg_api_v1alpha1_LinuxResources | null);
  'cgroupParent'?: (string);
  'cgroupsPath'?: (string);
  'namespaces'?: (_nri_pkg_api_v1alpha1_LinuxNamespace)[];
  'resources'?: (_nri_pkg_api_v1alpha1_LinuxResources | null);
}

export interface LinuxPodSandbox__Output {
  'podOverhead': (_nri_pkg_api_v1alpha1_LinuxResources__Output | null);
  'podResources': (_nri_pkg_api_v1alpha1_LinuxResources__Output | null);
  'cgroupParent': (string);
  'cgroupsPath': (string);
  'namespaces': (_nri_pkg_api_v1alpha1_LinuxNamespace__Output)[];
  'resources': (_nri_pkg_api_v1alpha1_LinuxResources__Output | null);
}
