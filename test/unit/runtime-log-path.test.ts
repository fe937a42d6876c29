import { describe, expect, it } from 'vitest';
import { containerLogPath } from '../../src/runtime/container/log-path.js';

const POD = '/var/log/pods/default_web-0_8f0c2d6e-4b8a-4c1e-9a55-0f5d1c2b3a4d';
const DIR = '/var/lib/isulats/containers/abc';

describe('container log path (containerd: filepath.Join(log_directory, log_path))', () => {
  it.each([
    ['kubelet\'s relative path', POD, 'web/0.log', `${POD}/web/0.log`],
    ['an absolute path, joined under the pod\'s log directory', POD, '/tmp/x/0.log', `${POD}/tmp/x/0.log`],
    ['`..`, cleaned as Join cleans it', POD, '../other/0.log', '/var/log/pods/other/0.log'],
    ['a relative path in a pod without a log directory (containerd keeps no log): under the container\'s dir', '', 'web/0.log', `${DIR}/web/0.log`],
    ['an absolute path in a pod without a log directory, under the container\'s dir too', '', '/tmp/x/../y/0.log', `${DIR}/tmp/y/0.log`],
    ['`..` in a pod without a log directory, kept in the container\'s dir', '', '../../../etc/0.log', `${DIR}/etc/0.log`],
    ['no log path', POD, '', ''],
  ])('%s', (_what, logDirectory, logPath, expected) => {
    expect(containerLogPath(logDirectory, logPath, DIR)).toBe(expected);
  });
});
