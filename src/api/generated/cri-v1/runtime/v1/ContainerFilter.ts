// Original file: proto/runtime/v1/api.proto

import type { ContainerStateValue as _runtime_v1_ContainerStateValue, ContainerStateValue__Output as _runtime_v1_ContainerStateValue__Output } from '../../runtime/v1/ContainerStateValue.js';

export interface ContainerFilter {
  'id'?: (string);
  'state'?: (_runtime_v1_ContainerStateValue | null);
  'podSandboxId'?: (string);
  'labelSelector'?: ({[key: string]: string});
}

export interface ContainerFilter__Output {
  'id': (string);
  'state': (_runtime_v1_ContainerStateValue__Output | null);
  'podSandboxId': (string);
  'labelSelector': ({[key: string]: string});
}
