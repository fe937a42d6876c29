// Original file: proto/runtime/v1/api.proto

import type { LinuxContainerResources as _runtime_v1_LinuxContainerResources, LinuxContainerResources__Output as _runtime_v1_LinuxContainerResources__Output } from '../../runtime/v1/LinuxContainerResources.js';

export interface UpdatePodSandboxResourcesRequest {
  'podSandboxId'?: (string);
  'overhead'?: (_runtime_v1_LinuxContainerResources | null);
  'resources'?: (_runtime_v1_LinuxContainerResources | null);
}

export interface UpdatePodSandboxResourcesRequest__Output {
  'podSandboxId': (string);
  'overhead': (_runtime_v1_LinuxContainerResources__Output | null);
  'resources': (_runtime_v1_LinuxContainerResources__Output | null);
}
