// Original file: proto/nri/api.proto


export interface PluginInstance {
  'name'?: (string);
  'index'?: (string);
}

export interface PluginInstance__Output {
  'name': (string);
  'index': (string);
}
