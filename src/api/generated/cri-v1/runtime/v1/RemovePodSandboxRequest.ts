// Original file: proto/runtime/v1/api.proto


export interface RemovePodSandboxRequest {
  'podSandboxId'?: (string);
}

export interface RemovePodSandboxRequest__Output {
  'podSandboxId': (string);
}
