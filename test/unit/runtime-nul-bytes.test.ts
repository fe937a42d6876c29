import { describe, expect, it } from 'vitest';
import { refuseNulBytes } from '../../src/runtime/nul-bytes.js';

const container = {
  metadata: { name: 'app', attempt: 1 },
  image: { image: 'busybox' },
  command: ['sh', '-c'],
  args: ['echo hi'],
  envs: [{ key: 'A', value: '1' }],
  labels: { 'io.kubernetes.pod.name': 'web' },
  logPath: 'app/1.log',
  linux: { resources: { cpuShares: '2' } },
};

describe('NUL bytes in CRI requests', () => {
  it('passes a request without one (numbers, booleans, empty values, buffers)', () => {
    expect(() => refuseNulBytes({ ...container, tty: true, mounts: [], stdin: null, data: Buffer.from('1') }, 'config')).not.toThrow();
    expect(() => refuseNulBytes(undefined, 'config')).not.toThrow();
  });

  it.each<[string, unknown, string]>([
    ['the container name', { ...container, metadata: { name: 'a\0b', attempt: 1 } }, 'config.metadata.name must not contain a NUL byte'],
    ['an argument', { ...container, args: ['ok', 'x\0'] }, 'config.args[1] must not contain a NUL byte'],
    ['an env value', { ...container, envs: [{ key: 'A', value: '1\0' }] }, 'config.envs[0].value must not contain a NUL byte'],
    ['an env value as bytes', { ...container, envs: [{ key: 'A', value: Buffer.from('1\0') }] }, 'config.envs[0].value must not contain a NUL byte'],
    ['a log path', { ...container, logPath: 'app/\0.log' }, 'config.logPath must not contain a NUL byte'],
    ['a label value', { ...container, labels: { 'io.kubernetes.pod.name': '\0' } }, 'config.labels["io.kubernetes.pod.name"] must not contain a NUL byte'],
    ['a label key', { ...container, labels: { 'k\0': 'v' } }, 'a key of config.labels ("k\\u0000") must not contain a NUL byte'],
  ])('refuses one in %s as InvalidArgument naming the field, in one line', (_what, config, message) => {
    let error: unknown;
    try {
      refuseNulBytes(config, 'config');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ kind: 'invalid-argument', message });
    expect((error as Error).message).not.toContain('\0');
  });
});
