// Original file: proto/nri/api.proto


// Original file: proto/nri/api.proto

export const _nri_pkg_api_v1alpha1_SecurityProfile_ProfileType = {
  RUNTIME_DEFAULT: 'RUNTIME_DEFAULT',
  UNCONFINED: 'UNCONFINED',
  LOCALHOST: 'LOCALHOST',
} as const;

export type _nri_pkg_api_v1alpha1_SecurityProfile_ProfileType =
  | 'RUNTIME_DEFAULT'
  | 0
  | 'UNCONFINED'
  | 1
  | 'LOCALHOST'
  | 2

export type _nri_pkg_api_v1alpha1_SecurityProfile_ProfileType__Output = typeof _nri_pkg_api_v1alpha1_SecurityProfile_ProfileType[keyof typeof _nri_pkg_api_v1alpha1_SecurityProfile_ProfileType]

export interface SecurityProfile {
  'profileType'?: (_nri_pkg_api_v1alpha1_SecurityProfile_ProfileType);
  'localhostRef'?: (string);
}

export interface SecurityProfile__Output {
  'profileType': (_nri_pkg_api_v1alpha1_SecurityProfile_ProfileType__Output);
  'localhostRef': (string);
}
