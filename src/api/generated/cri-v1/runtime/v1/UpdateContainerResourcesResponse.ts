// Original file: proto/runtime/v1/api.proto


export interface UpdateContainerResourcesResponse {
}

export interface UpdateContainerResourcesResponse__Output {
}
