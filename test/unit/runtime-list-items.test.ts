import { describe, expect, it } from 'vitest';
import { containerListItem } from '../../src/runtime/container/container-status.js';
import type { ContainerRecord } from '../../src/runtime/container/container-record.js';
import { sandboxListItem } from '../../src/runtime/sandbox/sandbox-service.js';
import type { SandboxRecord } from '../../src/runtime/sandbox/sandbox-record.js';
import { deepFreeze } from '../../src/runtime/store/record-cache.js';

const uid = '3f9f2a4e-7d1c-4b8e-9a51-0c6f2d8e4b17';
const labels = { 'io.kubernetes.pod.name': 'web-7c9d8b5f4-x2kq9', 'io.kubernetes.pod.namespace': 'default', 'io.kubernetes.pod.uid': uid };

const sandbox = (): SandboxRecord => ({
  id: 'a'.repeat(64), createdAt: '1764633600123456789', runtimeHandler: '', state: 'SANDBOX_READY',
  config: { metadata: { name: 'web-7c9d8b5f4-x2kq9', uid, namespace: 'default', attempt: 0 }, labels, annotations: { 'kubernetes.io/config.source': 'api' } },
} as unknown as SandboxRecord);

const container = (state: string): ContainerRecord => ({
  id: 'c'.repeat(64), sandboxId: 'a'.repeat(64), state, createdAt: '1764633600223456789', imageRef: `sha256:${'d'.repeat(64)}`, imageId: `sha256:${'d'.repeat(64)}`,
  imageName: 'registry.k8s.io/pause:3.9',
  config: { metadata: { name: 'app', attempt: 1 }, image: { image: 'registry.k8s.io/pause:3.9' }, labels: { ...labels, 'io.kubernetes.container.name': 'app' }, annotations: {} },
} as unknown as ContainerRecord);

describe('list items of shared records', () => {
  it('gives one frozen ListContainers item per frozen record, and a new one for the record a state change wrote', () => {
    const running = deepFreeze(container('CONTAINER_RUNNING'));
    const item = containerListItem(running);
    expect(containerListItem(running)).toBe(item);
    expect(Object.isFrozen(item)).toBe(true);
    expect(item).toMatchObject({ id: running.id, podSandboxId: running.sandboxId, state: 'CONTAINER_RUNNING', metadata: { name: 'app', attempt: 1 } });
    expect(containerListItem(deepFreeze(container('CONTAINER_EXITED'))).state).toBe('CONTAINER_EXITED');
  });

  it('builds a fresh, unfrozen item for a record that is not shared', () => {
    const mine = container('CONTAINER_RUNNING');
    expect(containerListItem(mine)).not.toBe(containerListItem(mine));
    expect(Object.isFrozen(containerListItem(mine))).toBe(false);
  });

  it('gives a new ListPodSandbox item when the pod died though its record did not change', () => {
    const record = deepFreeze(sandbox());
    const ready = sandboxListItem(record, 'SANDBOX_READY');
    expect(sandboxListItem(record, 'SANDBOX_READY')).toBe(ready);
    const dead = sandboxListItem(record, 'SANDBOX_NOTREADY');
    expect(dead.state).toBe('SANDBOX_NOTREADY');
    expect(ready.state).toBe('SANDBOX_READY');
    expect(dead).toMatchObject({ id: record.id, metadata: { name: 'web-7c9d8b5f4-x2kq9', uid, namespace: 'default', attempt: 0 }, labels });
  });
});
