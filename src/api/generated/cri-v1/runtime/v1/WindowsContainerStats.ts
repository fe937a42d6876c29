// Original file: proto/runtime/v1/api.proto

import type { ContainerAttributes as _runtime_v1_ContainerAttributes, ContainerAttributes__Output as _runtime_v1_ContainerAttributes__Output } from '../../runtime/v1/ContainerAttributes.js';
import type { WindowsCpuUsage as _runtime_v1_WindowsCpuUsage, WindowsCpuUsage__Output as _runtime_v1_WindowsCpuUsage__Output } from '../../runtime/v1/WindowsCpuUsage.js';
import type { WindowsMemoryUsage as _runtime_v1_WindowsMemoryUsage, WindowsMemoryUsage__Output as _runtime_v1_WindowsMemoryUsage__Output } from '../../runtime/v1/WindowsMemoryUsage.js';
import type { WindowsFilesystemUsage as _runtime_v1_WindowsFilesystemUsage, WindowsFilesystemUsage__Output as _runtime_v1_WindowsFilesystemUsage__Output } from '../../runtime/v1/WindowsFilesystemUsage.js';

export interface WindowsContainerStats {
  'attributes'?: (_runtime_v1_ContainerAttributes | null);
  'cpu'?: (_runtime_v1_WindowsCpuUsage | null);
  'memory'?: (_runtime_v1_WindowsMemoryUsage | null);
  'writableLayer'?: (_runtime_v1_WindowsFilesystemUsage | null);
}

export interface WindowsContainerStats__Output {
  'attributes': (_runtime_v1_ContainerAttributes__Output | null);
  'cpu': (_runtime_v1_WindowsCpuUsage__Output | null);
  'memory': (_runtime_v1_WindowsMemoryUsage__Output | null);
  'writableLayer': (_runtime_v1_WindowsFilesystemUsage__Output | null);
}
