// Original file: proto/nri/api.proto

import type { ContainerState as _nri_pkg_api_v1alpha1_ContainerState, ContainerState__Output as _nri_pkg_api_v1alpha1_ContainerState__Output } from '../../../../nri/pkg/api/v1alpha1/ContainerState.js';
import type { Mount as _nri_pkg_api_v1alpha1_Mount, Mount__Output as _nri_pkg_api_v1alpha1_Mount__Output } from '../../../../nri/pkg/api/v1alpha1/Mount.js';
import type { Hooks as _nri_pkg_api_v1alpha1_Hooks, Hooks__Output as _nri_pkg_api_v1alpha1_Hooks__Output } from '../../../../nri/pkg/api/v1alpha1/Hooks.js';
import type { LinuxContainer as _nri_pkg_api_v1alpha1_LinuxContainer, LinuxContainer__Output as _nri_pkg_api_v1alpha1_LinuxContainer__Output } from '../../../../nri/pkg/api/v1alpha1/LinuxContainer.js';
import type { POSIXRlimit as _nri_pkg_api_v1alpha1_POSIXRlimit, POSIXRlimit__Output as _nri_pkg_api_v1alpha1_POSIXRlimit__Output } from '../../../../nri/pkg/api/v1alpha1/POSIXRlimit.js';
import type { CDIDevice as _nri_pkg_api_v1alpha1_CDIDevice, CDIDevice__Output as _nri_pkg_api_v1alpha1_CDIDevice__Output } from '../../../../nri/pkg/api/v1alpha1/CDIDevice.js';
import type { User as _nri_pkg_api_v1alpha1_User, User__Output as _nri_pkg_api_v1alpha1_User__Output } from '../../../../nri/pkg/api/v1alpha1/User.js';
import type { Image as _nri_pkg_api_v1alpha1_Image, Image__Output as _nri_pkg_api_v1alpha1_Image__Output } from '../../../../nri/pkg/api/v1alpha1/Image.js';
import type { Long } from '@grpc/proto-loader';

export interface Container {
  'id'?: (string);
  'podSandboxId'?: (string);
  'name'?: (string);
  'state'?: (_nri_pkg_api_v1alpha1_ContainerState);
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'args'?: (string)[];
  'env'?: (string)[];
  'mounts'?: (_nri_pkg_api_v1alpha1_Mount)[];
  'hooks'?: (_nri_pkg_api_v1alpha1_Hooks | null);
  'linux'?: (_nri_pkg_api_v1alpha1_LinuxContainer | null);
  'pid'?: (number);
  'rlimits'?: (_nri_pkg_api_v1alpha1_POSIXRlimit)[];
  'createdAt'?: (number | string | Long);
  'startedAt'?: (number | string | Long);
  'finishedAt'?: (number | string | Long);
  'exitCode'?: (number);
  'statusReason'?: (string);
  'statusMessage'?: (string);
  'CDIDevices'?: (_nri_pkg_api_v1alpha1_CDIDevice)[];
  'user'?: (_nri_pkg_api_v1alpha1_User | null);
  'image'?: (_nri_pkg_api_v1alpha1_Image | null);
}

export interface Container__Output {
  'id': (string);
  'podSandboxId': (string);
  'name': (string);
  'state': (_nri_pkg_api_v1alpha1_ContainerState__Output);
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'args': (string)[];
  'env': (string)[];
  'mounts': (_nri_pkg_api_v1alpha1_Mount__Output)[];
  'hooks': (_nri_pkg_api_v1alpha1_Hooks__Output | null);
  'linux': (_nri_pkg_api_v1alpha1_LinuxContainer__Output | null);
  'pid': (number);
  'rlimits': (_nri_pkg_api_v1alpha1_POSIXRlimit__Output)[];
  'createdAt': (string);
  'startedAt': (string);
  'finishedAt': (string);
  'exitCode': (number);
  'statusReason': (string);
  'statusMessage': (string);
  'CDIDevices': (_nri_pkg_api_v1alpha1_CDIDevice__Output)[];
  'user': (_nri_pkg_api_v1alpha1_User__Output | null);
  'image': (_nri_pkg_api_v1alpha1_Image__Output | null);
}
