// Original file: proto/nri/api.proto


export interface ValidateContainerAdjustmentResponse {
  'reject'?: (boolean);
  'reason'?: (string);
}

export interface ValidateContainerAdjustmentResponse__Output {
  'reject': (boolean);
  'reason': (string);
}
