import { describe, expect, it } from 'vitest';
import { exitTransition, type ContainerRecord } from '../../src/runtime/container/container-record.js';

const base: ContainerRecord = {
  id: 'c'.repeat(64),
  sandboxId: 's'.repeat(64),
  name: 'k8s_c_p_ns_uid_0',
  config: {},
  state: 'CONTAINER_RUNNING',
  createdAt: '1',
  startedAt: '2',
  finishedAt: '0',
  exitCode: 0,
  reason: '',
  message: '',
  imageRef: 'sha256:x',
  imageId: 'sha256:x',
  imageName: 'busybox',
  logPath: '',
  bundle: '/b',
  pid: 10,
  cgroupsPath: '/isulats/c',
  stopSignal: 'SIGTERM',
  user: { uid: 0, gid: 0, supplementalGroups: [] },
};

describe('container exit transition', () => {
  it.each([
    [{ exitCode: 0, finishedAt: '9', oomKilled: false }, 0, 'Completed'],
    [{ exitCode: 143, finishedAt: '9', oomKilled: false }, 143, 'Error'],
    [{ exitCode: 137, finishedAt: '9', oomKilled: true }, 137, 'OOMKilled'],
  ])('marks a running container exited from %j', (exit, code, reason) => {
    const next = exitTransition(base, exit, '100');
    expect([next.state, next.exitCode, next.reason, next.finishedAt]).toEqual(['CONTAINER_EXITED', code, reason, '9']);
  });

  it('records an unknown exit when the monitor left no status', () => {
    const next = exitTransition(base, undefined, '100');
    expect([next.state, next.exitCode, next.reason, next.finishedAt]).toEqual(['CONTAINER_EXITED', 255, 'Unknown', '100']);
    expect(next.message).toMatch(/monitor/);
  });

  it('never records a finish before the start (the exit file mtime is a coarse-clock tick behind)', () => {
    const started = { ...base, startedAt: '1700000000004000000' };
    const next = exitTransition(started, { exitCode: 0, finishedAt: '1700000000000000000', oomKilled: false }, '1700000000009000000');
    expect(next.finishedAt).toBe('1700000000004000000');
  });

  it.each(['CONTAINER_CREATED', 'CONTAINER_EXITED'] as const)('leaves a %s container as it is', (state) => {
    const record = { ...base, state };
    expect(exitTransition(record, { exitCode: 1, finishedAt: '9', oomKilled: false }, '100')).toBe(record);
  });
});
