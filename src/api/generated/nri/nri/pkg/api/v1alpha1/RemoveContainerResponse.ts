// Original file: proto/nri/api.proto


export interface RemoveContainerResponse {
}

export interface RemoveContainerResponse__Output {
}
