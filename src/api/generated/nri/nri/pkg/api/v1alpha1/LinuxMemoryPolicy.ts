// Original file: proto/nri/api.proto

import type { MpolMode as _nri_pkg_api_v1alpha1_MpolMode, MpolMode__Output as _nri_pkg_api_v1alpha1_MpolMode__Output } from '../../../../nri/pkg/api/v1alpha1/MpolMode.js';
import type { MpolFlag as _nri_pkg_api_v1alpha1_MpolFlag, MpolFlag__Output as _nri_pkg_api_v1alpha1_MpolFlag__Output } from '../../../../nri/pkg/api/v1alpha1/MpolFlag.js';

export interface LinuxMemoryPolicy {
  'mode'?: (_nri_pkg_api_v1alpha1_MpolMode);
  'nodes'?: (string);
  'flags'?: (_nri_pkg_api_v1alpha1_MpolFlag)[];
}

export interface LinuxMemoryPolicy__Output {
  'mode': (_nri_pkg_api_v1alpha1_MpolMode__Output);
  'nodes': (string);
  'flags': (_nri_pkg_api_v1alpha1_MpolFlag__Output)[];
}
