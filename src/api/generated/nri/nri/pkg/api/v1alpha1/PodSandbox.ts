// Original file: proto/nri/api.proto

import type { LinuxPodSandbox as _nri_pkg_api_v1alpha1_LinuxPodSandbox, LinuxPodSandbox__Output as _nri_pkg_api_v1alpha1_LinuxPodSandbox__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxPodSandbox.js';

export interface PodSandbox {
  'id'?: (string);
  'name'?: (string);
  'uid'?: (string);
  'namespace'?: (string);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'runtimeHandler'?: (string);
  'linux'?: (_nri_pkg_api_v1alpha1_LinuxPodSandbox | null);
  'pid'?: (number);
  'ips'?: (string)[];
}

export interface PodSandbox__Output {
  'id': (string);
  'name': (string);
  'uid': (string);
  'namespace': (string);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'runtimeHandler': (string);
  'linux': (_nri_pkg_api_v1alpha1_LinuxPodSandbox__Output | null);
  'pid': (number);
  'ips': (string)[];
}
