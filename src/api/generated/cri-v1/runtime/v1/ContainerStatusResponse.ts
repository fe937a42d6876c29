// Original file: proto/runtime/v1/api.proto

import type { ContainerStatus as _runtime_v1_ContainerStatus, ContainerStatus__Output as _runtime_v1_ContainerStatus__Output } from '../../runtime/v1/ContainerStatus.js';

export interface ContainerStatusResponse {
  'status'?: (_runtime_v1_ContainerStatus | null);
  'info'?: ({[key: string]: string});
}

export interface ContainerStatusResponse__Output {
  'status': (_runtime_v1_ContainerStatus__Output | null);
  'info': ({[key: string]: string});
}
