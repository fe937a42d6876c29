// The example plugins that turn pod annotations into env, rlimits, host
// mounts and devices take nothing unless configured to trust the pod's
// namespace (and, optionally, only some of their keys).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { DeviceMountInjector } from '../../examples/nri/device-mount-injector.js';
import { EnvUlimitAdjuster } from '../../examples/nri/env-ulimit-adjuster.js';

const annotations = {
  'env.nri.isulats.io/container.app': 'GREETING: hello\n',
  'ulimits.nri.isulats.io/container.app': '- type: nofile\n  soft: 1024\n  hard: 2048\n',
  'mounts.nri.isulats.io/pod': '- source: /\n  destination: /host\n  type: bind\n',
  'devices.nri.isulats.io/pod': '- path: /dev/sda\n  type: b\n  major: 8\n  minor: 0\n',
};
const pod = (namespace: string) => ({ id: 'p1', name: 'web-7d4b9c-x2x9k', uid: 'u1', namespace, labels: {}, annotations }) as unknown as nri.PodSandbox;
const container = { id: 'c1', name: 'app', annotations: {} } as unknown as nri.Container;
const configure = (config: string) => ({ config, runtimeName: 'isulats', runtimeVersion: '0.1.0', registrationTimeoutMs: 5000, requestTimeoutMs: 2000 });

describe('example plugins take annotations only from trusted namespaces', () => {
  it('take nothing when not configured', () => {
    const env = new EnvUlimitAdjuster();
    env.configure(configure(''));
    expect(env.createContainer(pod('default'), container).adjust).toEqual({});
    const inj = new DeviceMountInjector();
    inj.configure(configure(''));
    const adj = inj.createContainer(pod('kube-system'), container).adjust!;
    expect(adj.mounts ?? []).toEqual([]);
    expect(adj.linux?.devices ?? []).toEqual([]);
  });

  it('take them from the namespaces the configuration names, and only the keys it allows', () => {
    const env = new EnvUlimitAdjuster();
    env.configure(configure('allowedNamespaces: [team-a]\nallowedKeys: [ulimits.nri.isulats.io]\n'));
    expect(env.createContainer(pod('team-b'), container).adjust).toEqual({});
    const adj = env.createContainer(pod('team-a'), container).adjust!;
    expect(adj.env ?? []).toEqual([]);
    expect(adj.rlimits).toMatchObject([{ type: 'RLIMIT_NOFILE' }]);
    const inj = new DeviceMountInjector();
    inj.configure(configure('allowedNamespaces: [device-admins]\n'));
    expect(inj.createContainer(pod('device-admins'), container).adjust?.mounts).toMatchObject([{ source: '/', destination: '/host' }]);
    expect(inj.createContainer(pod('default'), container).adjust?.mounts ?? []).toEqual([]);
  });

  it('read --config FILE when started by hand, and refuse keys that are not theirs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'isnp-'));
    try {
      writeFileSync(join(dir, 'c.yaml'), 'allowedNamespaces: ["*"]\n');
      const env = new EnvUlimitAdjuster();
      const argv = process.argv;
      process.argv = [argv[0]!, 'plugin.mjs', '--config', join(dir, 'c.yaml')];
      try {
        env.configure(configure(''));
      } finally {
        process.argv = argv;
      }
      expect(env.createContainer(pod('anything'), container).adjust?.env).toMatchObject([{ key: 'GREETING', value: 'hello' }]);
      expect(() => new EnvUlimitAdjuster().configure(configure('allowedNamespaces: [a]\nallowedKeys: [mounts.nri.isulats.io]\n')))
        .toThrow('allowedKeys: mounts.nri.isulats.io not among this plugin\'s keys (env.nri.isulats.io, ulimits.nri.isulats.io)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
