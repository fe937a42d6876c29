// Original file: proto/runtime/v1/api.proto

import type { PodSandboxMetadata as _runtime_v1_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1_PodSandboxMetadata__Output } from '../../runtime/v1/PodSandboxMetadata.js';

export interface PodSandboxAttributes {
  'id'?: (string);
  'metadata'?: (_runtime_v1_PodSandboxMetadata | null);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
}

export interface PodSandboxAttributes__Output {
  'id': (string);
  'metadata': (_runtime_v1_PodSandboxMetadata__Output | null);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
}
