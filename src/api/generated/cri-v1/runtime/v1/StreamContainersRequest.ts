// Original file: proto/runtime/v1/api.proto

import type { ContainerFilter as _runtime_v1_ContainerFilter, ContainerFilter__Output as _runtime_v1_ContainerFilter__Output } from '../../runtime/v1/ContainerFilter.js';

export interface StreamContainersRequest {
  'filter'?: (_runtime_v1_ContainerFilter | null);
}

export interface StreamContainersRequest__Output {
  'filter': (_runtime_v1_ContainerFilter__Output | null);
}
