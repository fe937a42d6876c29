// Original file: proto/nri/api.proto


export interface RegisterPluginRequest {
  'pluginName'?: (string);
  'pluginIdx'?: (string);
  'NRIVersion'?: (string);
}

export interface RegisterPluginRequest__Output {
  'pluginName': (string);
  'pluginIdx': (string);
  'NRIVersion': (string);
}
