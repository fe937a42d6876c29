// Original file: proto/runtime/v1/api.proto

import type { WindowsSandboxSecurityContext as _runtime_v1_WindowsSandboxSecurityContext, WindowsSandboxSecurityContext__Output as _runtime_v1_WindowsSandboxSecurityContext__Output } from '../../runtime/v1/WindowsSandboxSecurityContext.js';

export interface WindowsPodSandboxConfig {
  'securityContext'?: (_runtime_v1_WindowsSandboxSecurityContext | null);
}

export interface WindowsPodSandboxConfig__Output {
  'securityContext': (_runtime_v1_WindowsSandboxSecurityContext__Output | null);
}
