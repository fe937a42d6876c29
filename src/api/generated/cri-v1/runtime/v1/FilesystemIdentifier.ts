// Original file: proto/runtime/v1/api.proto


export interface FilesystemIdentifier {
  'mountpoint'?: (string);
}

export interface FilesystemIdentifier__Output {
  'mountpoint': (string);
}
