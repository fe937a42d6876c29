// Original file: proto/nri/api.proto


export interface PostUpdateContainerResponse {
}

export interface PostUpdateContainerResponse__Output {
}
