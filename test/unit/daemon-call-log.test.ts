// The daemon's line per CRI call: level by what the call does (containerd's set at info), the IDs
// and names from request and answer, errors and their codes.
import { describe, expect, it } from 'vitest';
import { callSubject, logCall } from '../../src/daemon/call-log.js';
import { createLogger } from '../../src/daemon/logger.js';
import type { LogLevel } from '../../src/runtime/config/daemon-config.js';

function capture(level: LogLevel) {
  const lines: Array<Record<string, unknown>> = [];
  return { log: createLogger(level, (l) => lines.push(JSON.parse(l))), lines };
}

const POD = 'a'.repeat(64);
const CTR = 'b'.repeat(64);

describe('CRI call log lines', () => {
  it.each([
    ['RunPodSandbox', 'info'], ['StopPodSandbox', 'info'], ['RemovePodSandbox', 'info'], ['PortForward', 'info'],
    ['CreateContainer', 'info'], ['StartContainer', 'info'], ['StopContainer', 'info'], ['RemoveContainer', 'info'],
    ['UpdateContainerResources', 'info'], ['UpdatePodSandboxResources', 'info'], ['PullImage', 'info'], ['RemoveImage', 'info'],
    ['CheckpointContainer', 'info'],
    ['ExecSync', 'debug'], ['Exec', 'debug'], ['ListPodSandbox', 'debug'], ['ContainerStatus', 'debug'], ['Version', 'debug'],
    ['ImageFsInfo', 'debug'], ['ReopenContainerLog', 'debug'], ['UpdateRuntimeConfig', 'debug'],
  ])('%s logs at %s', (rpc, level) => {
    const info = capture('info');
    logCall(info.log, { rpc, api: 'v1', started: process.hrtime.bigint(), code: 0, req: {} });
    expect(info.lines.map((l) => l.level)).toEqual(level === 'info' ? ['info'] : []);
    const debug = capture('debug');
    logCall(debug.log, { rpc, api: 'v1', started: process.hrtime.bigint(), code: 0, req: {} });
    expect(debug.lines.map((l) => l.level)).toEqual([level]);
  });

  it('names what a call concerns and what it made', () => {
    const meta = { name: 'web-7d24fa9f', namespace: 'default', uid: '4c5b9f2e-0d6a-4f8e-9a51-3f1c0f1d2e77', attempt: 1 };
    expect(callSubject({ config: { metadata: meta } }, { podSandboxId: POD })).toEqual({ ...meta, podSandboxId: POD });
    expect(callSubject({ podSandboxId: POD, config: { metadata: { name: 'app', attempt: 0 }, image: { image: 'busybox:1.36' } } }, { containerId: CTR }))
      .toEqual({ podSandboxId: POD, name: 'app', attempt: 0, image: 'busybox:1.36', containerId: CTR });
    expect(callSubject({ containerId: CTR, timeout: '30' }, {})).toEqual({ containerId: CTR, timeout: 30 });
    expect(callSubject({ image: { image: 'busybox:1.36' } }, { imageRef: 'sha256:abc' })).toEqual({ image: 'busybox:1.36', imageRef: 'sha256:abc' });
    expect(callSubject({ containerId: CTR, cmd: ['true'], timeout: 0 }, { exitCode: 0 })).toEqual({ containerId: CTR, timeout: 0, exitCode: 0 });
  });

  it('logs a failure with its code and error, and an internal one at error with the stack', () => {
    const { log, lines } = capture('warn');
    logCall(log, { rpc: 'StopContainer', api: 'v1', started: process.hrtime.bigint(), code: 5, details: 'not found', req: { containerId: CTR } });
    expect(lines).toEqual([]);
    const err = new Error('runc exploded');
    logCall(log, { rpc: 'StartContainer', api: 'v1alpha2', started: process.hrtime.bigint(), code: 13, details: err.message, err, req: { containerId: CTR } });
    expect(lines).toEqual([expect.objectContaining({
      level: 'error', msg: 'request failed', rpc: 'StartContainer', api: 'v1alpha2', containerId: CTR, code: 13, error: 'runc exploded', stack: expect.stringContaining('runc exploded'),
    })]);
    const info = capture('info');
    logCall(info.log, { rpc: 'StopContainer', api: 'v1', started: process.hrtime.bigint() - 1_500_000n, code: 5, details: 'not found', req: { containerId: CTR } });
    expect(info.lines).toEqual([expect.objectContaining({ level: 'info', msg: 'request failed', rpc: 'StopContainer', containerId: CTR, code: 5, error: 'not found' })]);
    expect(info.lines[0]!.ms).toBeGreaterThanOrEqual(1.5);
  });
});
