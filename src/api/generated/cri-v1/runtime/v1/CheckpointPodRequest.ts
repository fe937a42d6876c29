// Original file: proto/runtime/v1/api.proto


export interface CheckpointPodRequest {
  'podSandboxId'?: (string);
  'outputPath'?: (string);
  'containerIds'?: (string)[];
  'options'?: ({[key: string]: string});
}

export interface CheckpointPodRequest__Output {
  'podSandboxId': (string);
  'outputPath': (string);
  'containerIds': (string)[];
  'options': ({[key: string]: string});
}
