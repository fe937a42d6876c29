// Original file: proto/runtime/v1/api.proto

import type { WindowsCpuGroupAffinity as _runtime_v1_WindowsCpuGroupAffinity, WindowsCpuGroupAffinity__Output as _runtime_v1_WindowsCpuGroupAffinity__Output } from '../../runtime/v1/WindowsCpuGroupAffinity.js';
import type { Long } from '@grpc/proto-loader';

export interface WindowsContainerResources {
  'cpuShares'?: (number | string | Long);
  'cpuCount'?: (number | string | Long);
  'cpuMaximum'?: (number | string | Long);
  'memoryLimitInBytes'?: (number | string | Long);
  'rootfsSizeInBytes'?: (number | string | Long);
  'affinityCpus'?: (_runtime_v1_WindowsCpuGroupAffinity)[];
}

export interface WindowsContainerResources__Output {
  'cpuShares': (string);
  'cpuCount': (string);
  'cpuMaximum': (string);
  'memoryLimitInBytes': (string);
  'rootfsSizeInBytes': (string);
  'affinityCpus': (_runtime_v1_WindowsCpuGroupAffinity__Output)[];
}
