// Example NRI plugin: injects devices and mounts into a container from pod
// annotations (scoped KEY/container.NAME, KEY/pod, KEY).
//
// WARNING: this gives a pod any host path and any device it names. A pod
// author who can set these annotations owns the node: a bind mount of / or
// /var/run, a block device of the host's disk. It takes annotations only from
// the namespaces its configuration trusts, none by default
// (annotation-policy.ts); trust only namespaces whose pod authors are node
// administrators:
//   allowedNamespaces: [device-admins]  # in 30-device-mount-injector.conf, or --config FILE
//
// Annotations it reads:
//   devices.nri.isulats.io/container.app: |
//     - path: /dev/nri-null
//       type: c
//       major: 1
//       minor: 3
//       file_mode: "0666"   # octal as a string, or a number
//   mounts.nri.isulats.io/container.app: |
//     - source: /tmp/data
//       destination: /data
//       type: bind
//       options: [rbind, ro]
import { parse } from 'yaml';
import { adjustment, isMain, runPlugin, type ConfigureInfo, type CreateContainerReply, type Plugin, type nri } from '../../src/nri/sdk/index.js';
import { AnnotationPolicy, type AnnotationPolicyConfig } from './annotation-policy.js';

export const DEVICES_ANNOTATION = 'devices.nri.isulats.io';
export const MOUNTS_ANNOTATION = 'mounts.nri.isulats.io';

interface DeviceSpec {
  path: string;
  type?: string;
  major: number;
  minor: number;
  file_mode?: number | string;
  uid?: number;
  gid?: number;
}

interface MountSpec {
  source: string;
  destination: string;
  type?: string;
  options?: string[];
}

export class DeviceMountInjector implements Plugin {
  private readonly policy: AnnotationPolicy;

  constructor(config?: AnnotationPolicyConfig) {
    this.policy = new AnnotationPolicy([DEVICES_ANNOTATION, MOUNTS_ANNOTATION], config);
  }

  configure(info: ConfigureInfo): void {
    this.policy.configure(info.config);
  }

  createContainer(pod: nri.PodSandbox, container: nri.Container): CreateContainerReply {
    const adj = adjustment();
    const devices = this.policy.lookup(pod, DEVICES_ANNOTATION, container);
    for (const d of devices ? ((parse(devices) as DeviceSpec[] | null) ?? []) : []) {
      if (!d.path?.startsWith('/dev/')) throw new Error(`device path ${JSON.stringify(d.path)} is not under /dev`);
      adj.addDevice({
        path: d.path,
        type: d.type ?? 'c',
        major: String(d.major),
        minor: String(d.minor),
        fileMode: d.file_mode !== undefined ? { value: typeof d.file_mode === 'string' ? parseInt(d.file_mode, 8) : d.file_mode } : undefined,
        uid: d.uid !== undefined ? { value: d.uid } : undefined,
        gid: d.gid !== undefined ? { value: d.gid } : undefined,
      });
    }
    const mounts = this.policy.lookup(pod, MOUNTS_ANNOTATION, container);
    for (const m of mounts ? ((parse(mounts) as MountSpec[] | null) ?? []) : []) {
      adj.addMount({ source: m.source, destination: m.destination, type: m.type ?? 'bind', options: m.options ?? ['rbind', 'rprivate'] });
    }
    return { adjust: adj.build() };
  }
}

if (isMain(import.meta.url)) void runPlugin(new DeviceMountInjector(), { name: 'device-mount-injector', idx: '30' });
