// Original file: proto/runtime/v1/api.proto


export interface ExecSyncResponse {
  'stdout'?: (Buffer | Uint8Array | string);
  'stderr'?: (Buffer | Uint8Array | string);
  'exitCode'?: (number);
}

export interface ExecSyncResponse__Output {
  'stdout': (Buffer);
  'stderr': (Buffer);
  'exitCode': (number);
}
