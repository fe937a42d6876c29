// Original file: proto/runtime/v1/api.proto

import type { PodSandbox as _runtime_v1_PodSandbox, PodSandbox__Output as _runtime_v1_PodSandbox__Output } from '../../runtime/v1/PodSandbox.js';

export interface StreamPodSandboxesResponse {
  'podSandboxes'?: (_runtime_v1_PodSandbox)[];
}

export interface StreamPodSandboxesResponse__Output {
  'podSandboxes': (_runtime_v1_PodSandbox__Output)[];
}
