// Original file: proto/nri/api.proto


export interface LinuxNetDevice {
  'name'?: (string);
}

export interface LinuxNetDevice__Output {
  'name': (string);
}
