// Original file: proto/runtime/v1/api.proto

import type { PodSandboxConfig as _runtime_v1_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1_PodSandboxConfig__Output } from '../../runtime/v1/PodSandboxConfig.js';

export interface RunPodSandboxRequest {
  'config'?: (_runtime_v1_PodSandboxConfig | null);
  'runtimeHandler'?: (string);
}

export interface RunPodSandboxRequest__Output {
  'config': (_runtime_v1_PodSandboxConfig__Output | null);
  'runtimeHandler': (string);
}
