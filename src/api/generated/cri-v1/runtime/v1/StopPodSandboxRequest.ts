// Original file: proto/runtime/v1/api.proto


export interface StopPodSandboxRequest {
  'podSandboxId'?: (string);
}

export interface StopPodSandboxRequest__Output {
  'podSandboxId': (string);
}
