// Original file: proto/runtime/v1/api.proto


export interface RuntimeHandlerFeatures {
  'recursiveReadOnlyMounts'?: (boolean);
  'userNamespaces'?: (boolean);
}

export interface RuntimeHandlerFeatures__Output {
  'recursiveReadOnlyMounts': (boolean);
  'userNamespaces': (boolean);
}
