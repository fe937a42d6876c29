// Original file: proto/nri/api.proto


// Original file: proto/nri/api.proto

export const _nri_pkg_api_v1alpha1_LogRequest_Level = {
  LEVEL_UNSPECIFIED: 'LEVEL_UNSPECIFIED',
  LEVEL_DEBUG: 'LEVEL_DEBUG',
  LEVEL_INFO: 'LEVEL_INFO',
  LEVEL_WARN: 'LEVEL_WARN',
  LEVEL_ERROR: 'LEVEL_ERROR',
} as const;

export type _nri_pkg_api_v1alpha1_LogRequest_Level =
  | 'LEVEL_UNSPECIFIED'
  | 0
  | 'LEVEL_DEBUG'
  | 1
  | 'LEVEL_INFO'
  | 2
  | 'LEVEL_WARN'
  | 3
  | 'LEVEL_ERROR'
  | 4

export type _nri_pkg_api_v1alpha1_LogRequest_Level__Output = typeof _nri_pkg_api_v1alpha1_LogRequest_Level[keyof typeof _nri_pkg_api_v1alpha1_LogRequest_Level]

export interface LogRequest {
  'msg'?: (string);
  'level'?: (_nri_pkg_api_v1alpha1_LogRequest_Level);
}

export interface LogRequest__Output {
  'msg': (string);
  'level': (_nri_pkg_api_v1alpha1_LogRequest_Level__Output);
}
