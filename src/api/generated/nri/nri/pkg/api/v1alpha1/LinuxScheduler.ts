// Original file: proto/nri/api.proto

import type { LinuxSchedulerPolicy as _nri_pkg_api_v1alpha1_LinuxSchedulerPolicy, LinuxSchedulerPolicy__Output as _nri_pkg_api_v1alpha1_LinuxSchedulerPolicy__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxSchedulerPolicy.js';
import type { LinuxSchedulerFlag as _nri_pkg_api_v1alpha1_LinuxSchedulerFlag, LinuxSchedulerFlag__Output as _nri_pkg_api_v1alpha1_LinuxSchedulerFlag__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxSchedulerFlag.js';
import type { Long } from '@grpc/proto-loader';

export interface LinuxScheduler {
  'policy'?: (_nri_pkg_api_v1alpha1_LinuxSchedulerPolicy);
  'nice'?: (number);
  'priority'?: (number);
  'flags'?: (_nri_pkg_api_v1alpha1_LinuxSchedulerFlag)[];
  'runtime'?: (number | string | Long);
  'deadline'?: (number | string | Long);
  'period'?: (number | string | Long);
}

export interface LinuxScheduler__Output {
  'policy': (_nri_pkg_api_v1alpha1_LinuxSchedulerPolicy__Output);
  'nice': (number);
  'priority': (number);
  'flags': (_nri_pkg_api_v1alpha1_LinuxSchedulerFlag__Output)[];
  'runtime': (string);
  'deadline': (string);
  'period': (string);
}
