// Original file: proto/nri/api.proto


export interface StartContainerResponse {
}

export interface StartContainerResponse__Output {
}
