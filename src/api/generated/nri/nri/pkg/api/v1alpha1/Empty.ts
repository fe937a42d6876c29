// Original file: proto/nri/api.proto


export interface Empty {
}

export interface Empty__Output {
}
