// Example NRI plugin: adjusts environment variables and rlimits of a
// container from pod annotations, scoped like every NRI annotation
// (KEY/container.NAME, KEY/pod, KEY):
//   env.nri.isulats.io/container.app: |
//     GREETING: hello
//   ulimits.nri.isulats.io/container.app: |
//     - type: RLIMIT_NOFILE
//       soft: 1024
//       hard: 2048
import { parse } from 'yaml';
import { adjustment, effectiveAnnotation, isMain, runPlugin, type CreateContainerReply, type Plugin, type nri } from '../../src/nri/sdk/index.js';

export const ENV_ANNOTATION = 'env.nri.isulats.io';
export const ULIMITS_ANNOTATION = 'ulimits.nri.isulats.io';

interface Ulimit {
  type: string;
  soft: number | string;
  hard: number | string;
}

/** "nofile" and "RLIMIT_NOFILE" both name RLIMIT_NOFILE. */
export function rlimitType(name: string): string {
  const upper = name.toUpperCase();
  return upper.startsWith('RLIMIT_') ? upper : `RLIMIT_${upper}`;
}

export class EnvUlimitAdjuster implements Plugin {
  createContainer(pod: nri.PodSandbox, container: nri.Container): CreateContainerReply {
    const adj = adjustment();
    const env = effectiveAnnotation(pod, ENV_ANNOTATION, container.name, container);
    if (env) {
      const vars = parse(env) as Record<string, unknown> | null;
      for (const [k, v] of Object.entries(vars ?? {})) adj.addEnv(k, String(v));
    }
    const ulimits = effectiveAnnotation(pod, ULIMITS_ANNOTATION, container.name, container);
    if (ulimits) {
      const list = parse(ulimits) as Ulimit[] | null;
      for (const u of list ?? []) {
        if (BigInt(u.soft) > BigInt(u.hard)) throw new Error(`ulimit ${u.type}: soft limit ${u.soft} above hard limit ${u.hard}`);
        adj.addRlimit(rlimitType(u.type), u.hard, u.soft);
      }
    }
    return { adjust: adj.build() };
  }
}

if (isMain(import.meta.url)) void runPlugin(new EnvUlimitAdjuster(), { name: 'env-ulimit-adjuster', idx: '20' });
