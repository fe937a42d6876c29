// Original file: proto/runtime/v1/api.proto

import type { ContainerStatsFilter as _runtime_v1_ContainerStatsFilter, ContainerStatsFilter__Output as _runtime_v1_ContainerStatsFilter__Output } from '../../runtime/v1/ContainerStatsFilter.js';

export interface ListContainerStatsRequest {
  'filter'?: (_runtime_v1_ContainerStatsFilter | null);
}

export interface ListContainerStatsRequest__Output {
  'filter': (_runtime_v1_ContainerStatsFilter__Output | null);
}
