// Example NRI plugin: adjusts environment variables and rlimits of a
// container from pod annotations, scoped like every NRI annotation
// (KEY/container.NAME, KEY/pod, KEY).
//
// WARNING: pod annotations are written by whoever creates the pod. Env and
// rlimits taken from them are the pod author's choice, not the node's (an
// RLIMIT_NOFILE or RLIMIT_NPROC raised far past the node's policy, env that
// changes what a trusted image runs). This plugin takes annotations only from
// the namespaces its configuration trusts, none by default
// (annotation-policy.ts):
//   allowedNamespaces: [team-a]        # in 20-env-ulimit-adjuster.conf, or --config FILE
//
// Annotations it reads:
//   env.nri.isulats.io/container.app: |
//     GREETING: hello
//   ulimits.nri.isulats.io/container.app: |
//     - type: RLIMIT_NOFILE
//       soft: 1024
//       hard: 2048
import { parse } from 'yaml';
import { adjustment, isMain, runPlugin, type ConfigureInfo, type CreateContainerReply, type Plugin, type nri } from '../../src/nri/sdk/index.js';
import { AnnotationPolicy, type AnnotationPolicyConfig } from './annotation-policy.js';

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
  private readonly policy: AnnotationPolicy;

  constructor(config?: AnnotationPolicyConfig) {
    this.policy = new AnnotationPolicy([ENV_ANNOTATION, ULIMITS_ANNOTATION], config);
  }

  configure(info: ConfigureInfo): void {
    this.policy.configure(info.config);
  }

  createContainer(pod: nri.PodSandbox, container: nri.Container): CreateContainerReply {
    const adj = adjustment();
    const env = this.policy.lookup(pod, ENV_ANNOTATION, container);
    if (env) {
      const vars = parse(env) as Record<string, unknown> | null;
      for (const [k, v] of Object.entries(vars ?? {})) adj.addEnv(k, String(v));
    }
    const ulimits = this.policy.lookup(pod, ULIMITS_ANNOTATION, container);
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
