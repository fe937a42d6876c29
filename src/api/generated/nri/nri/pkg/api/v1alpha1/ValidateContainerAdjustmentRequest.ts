// Original file: proto/nri/api.proto

import type { PodSandbox as _nri_pkg_api_v1alpha1_PodSandbox, PodSandbox__Output as _nri_pkg_api_v1alpha1_PodSandbox__Output } from '../../../../nri/pkg/api/v1alpha1/PodSandbox.js';
import type { Container as _nri_pkg_api_v1alpha1_Container, Container__Output as _nri_pkg_api_v1alpha1_Container__Output } from '../../../../nri/pkg/api/v1alpha1/Container.js';
import type { ContainerAdjustment as _nri_pkg_api_v1alpha1_ContainerAdjustment, ContainerAdjustment__Output as _nri_pkg_api_v1alpha1_ContainerAdjustment__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerAdjustment.js';
import type { ContainerUpdate as _nri_pkg_api_v1alpha1_ContainerUpdate, ContainerUpdate__Output as _nri_pkg_api_v1alpha1_ContainerUpdate__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerUpdate.js';
import type { OwningPlugins as _nri_pkg_api_v1alpha1_OwningPlugins, OwningPlugins__Output as _nri_pkg_api_v1alpha1_OwningPlugins__Output } from '../../../../nri/pkg/api/v1alpha1/OwningPlugins.js';
import type { PluginInstance as _nri_pkg_api_v1alpha1_PluginInstance, PluginInstance__Output as _nri_pkg_api_v1alpha1_PluginInstance__Output } from '../../../../nri/pkg/api/v1alpha1/PluginInstance.js';

export interface ValidateContainerAdjustmentRequest {
  'pod'?: (_nri_pkg_api_v1alpha1_PodSandbox | null);
  'container'?: (_nri_pkg_api_v1alpha1_Container | null);
  'adjust'?: (_nri_pkg_api_v1alpha1_ContainerAdjustment | null);
  'update'?: (_nri_pkg_api_v1alpha1_ContainerUpdate)[];
  'owners'?: (_nri_pkg_api_v1alpha1_OwningPlugins | null);
  'plugins'?: (_nri_pkg_api_v1alpha1_PluginInstance)[];
}

export interface ValidateContainerAdjustmentRequest__Output {
  'pod': (_nri_pkg_api_v1alpha1_PodSandbox__Output | null);
  'container': (_nri_pkg_api_v1alpha1_Container__Output | null);
  'adjust': (_nri_pkg_api_v1alpha1_ContainerAdjustment__Output | null);
  'update': (_nri_pkg_api_v1alpha1_ContainerUpdate__Output)[];
  'owners': (_nri_pkg_api_v1alpha1_OwningPlugins__Output | null);
  'plugins': (_nri_pkg_api_v1alpha1_PluginInstance__Output)[];
}
