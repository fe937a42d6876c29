// Original file: proto/nri/api.proto


export interface RunPodSandboxResponse {
}

export interface RunPodSandboxResponse__Output {
}
