// Original file: proto/nri/api.proto

import type { IOPrioClass as _nri_pkg_api_v1alpha1_IOPrioClass, IOPrioClass__Output as _nri_pkg_api_v1alpha1_IOPrioClass__Output } from '../../../../nri/pkg/api/v1alpha1/IOPrioClass.js';

export interface LinuxIOPriority {
  'class'?: (_nri_pkg_api_v1alpha1_IOPrioClass);
  'priority'?: (number);
}

export interface LinuxIOPriority__Output {
  'class': (_nri_pkg_api_v1alpha1_IOPrioClass__Output);
  'priority': (number);
}
