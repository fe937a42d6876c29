// Original file: proto/nri/api.proto

import type { PodSandbox as _nri_pkg_api_v1alpha1_PodSandbox, PodSandbox__Output as _nri_pkg_api_v1alpha1_PodSandbox__Output } from '../../../../nri/pkg/api/v1alpha1/PodSandbox.js';

export interface RemovePodSandboxRequest {
  'pod'?: (_nri_pkg_api_v1alpha1_PodSandbox | null);
}

export interface RemovePodSandboxRequest__Output {
  'pod': (_nri_pkg_api_v1alpha1_PodSandbox__Output | null);
}
