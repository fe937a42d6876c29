// Original file: proto/nri/api.proto


export interface PostCreateContainerResponse {
}

export interface PostCreateContainerResponse__Output {
}
