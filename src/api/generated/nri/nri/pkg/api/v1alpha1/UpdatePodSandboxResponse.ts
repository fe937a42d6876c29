// Original file: proto/nri/api.proto


export interface UpdatePodSandboxResponse {
}

export interface UpdatePodSandboxResponse__Output {
}
