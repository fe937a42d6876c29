// Original file: proto/runtime/v1/api.proto

import type { PodSandboxMetadata as _runtime_v1_PodSandboxMetadata, PodSandboxMetadata__Output as _runtime_v1_PodSandboxMetadata__Output } from '../../runtime/v1/PodSandboxMetadata.js';
import type { DNSConfig as _runtime_v1_DNSConfig, DNSConfig__Output as _runtime_v1_DNSConfig__Output } from '../../runtime/v1/DNSConfig.js';
import type { PortMapping as _runtime_v1_PortMapping, PortMapping__Output as _runtime_v1_PortMapping__Output } from '../../runtime/v1/PortMapping.js';
import type { LinuxPodSandboxConfig as _runtime_v1_LinuxPodSandboxConfig, LinuxPodSandboxConfig__Output as _runtime_v1_LinuxPodSandboxConfig__Output } from '../../runtime/v1/LinuxPodSandboxConfig.js';
import type { WindowsPodSandboxConfig as _runtime_v1_WindowsPodSandboxConfig, WindowsPodSandboxConfig__Output as _runtime_v1_WindowsPodSandboxConfig__Output } from '../../runtime/v1/WindowsPodSandboxConfig.js';

export interface PodSandboxConfig {
  'metadata'?: (_runtime_v1_PodSandboxMetadata | null);
  'hostname'?: (string);
  'logDirectory'?: (string);
  'dnsConfig'?: (_runtime_v1_DNSConfig | null);
  'portMappings'?: (_runtime_v1_PortMapping)[];
  'labels'?: ({[key: string]: string});
  'annotations'?: ({[key: string]: string});
  'linux'?: (_runtime_v1_LinuxPodSandboxConfig | null);
  'windows'?: (_runtime_v1_WindowsPodSandboxConfig | null);
}

export interface PodSandboxConfig__Output {
  'metadata': (_runtime_v1_PodSandboxMetadata__Output | null);
  'hostname': (string);
  'logDirectory': (string);
  'dnsConfig': (_runtime_v1_DNSConfig__Output | null);
  'portMappings': (_runtime_v1_PortMapping__Output)[];
  'labels': ({[key: string]: string});
  'annotations': ({[key: string]: string});
  'linux': (_runtime_v1_LinuxPodSandboxConfig__Output | null);
  'windows': (_runtime_v1_WindowsPodSandboxConfig__Output | null);
}
