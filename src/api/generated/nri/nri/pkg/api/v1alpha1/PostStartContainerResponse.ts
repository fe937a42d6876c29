// Original file: proto/nri/api.proto


export interface PostStartContainerResponse {
}

export interface PostStartContainerResponse__Output {
}
