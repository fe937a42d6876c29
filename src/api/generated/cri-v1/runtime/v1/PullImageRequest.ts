// Original file: proto/runtime/v1/api.proto

import type { ImageSpec as _runtime_v1_ImageSpec, ImageSpec__Output as _runtime_v1_ImageSpec__Output } from '../../runtime/v1/ImageSpec.js';
import type { AuthConfig as _runtime_v1_AuthConfig, AuthConfig__Output as _runtime_v1_AuthConfig__Output } from '../../runtime/v1/AuthConfig.js';
import type { PodSandboxConfig as _runtime_v1_PodSandboxConfig, PodSandboxConfig__Output as _runtime_v1_PodSandboxConfig__Output } from '../../runtime/v1/PodSandboxConfig.js';

export interface PullImageRequest {
  'image'?: (_runtime_v1_ImageSpec | null);
  'auth'?: (_runtime_v1_AuthConfig | null);
  'sandboxConfig'?: (_runtime_v1_PodSandboxConfig | null);
}

export interface PullImageRequest__Output {
  'image': (_runtime_v1_ImageSpec__Output | null);
  'auth': (_runtime_v1_AuthConfig__Output | null);
  'sandboxConfig': (_runtime_v1_PodSandboxConfig__Output | null);
}
