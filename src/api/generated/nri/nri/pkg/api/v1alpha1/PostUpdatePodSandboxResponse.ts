// Original file: proto/nri/api.proto


export interface PostUpdatePodSandboxResponse {
}

export interface PostUpdatePodSandboxResponse__Output {
}
