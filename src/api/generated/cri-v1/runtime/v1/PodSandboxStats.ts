// Original file: proto/runtime/v1/api.proto

import type { PodSandboxAttributes as _runtime_v1_PodSandboxAttributes, PodSandboxAttributes__Output as _runtime_v1_PodSandboxAttributes__Output } from '../../runtime/v1/PodSandboxAttributes.js';
import type { LinuxPodSandboxStats as _runtime_v1_LinuxPodSandboxStats, LinuxPodSandboxStats__Output as _runtime_v1_LinuxPodSandboxStats__Output } from '../../runtime/v1/LinuxPodSandboxStats.js';
import type { WindowsPodSandboxStats as _runtime_v1_WindowsPodSandboxStats, WindowsPodSandboxStats__Output as _runtime_v1_WindowsPodSandboxStats__Output } from '../../runtime/v1/WindowsPodSandboxStats.js';

export interface PodSandboxStats {
  'attributes'?: (_runtime_v1_PodSandboxAttributes | null);
  'linux'?: (_runtime_v1_LinuxPodSandboxStats | null);
  'windows'?: (_runtime_v1_WindowsPodSandboxStats | null);
}

export interface PodSandboxStats__Output {
  'attributes': (_runtime_v1_PodSandboxAttributes__Output | null);
  'linux': (_runtime_v1_LinuxPodSandboxStats__Output | null);
  'windows': (_runtime_v1_WindowsPodSandboxStats__Output | null);
}
