import { describe, expect, it } from 'vitest';
import type { Type } from 'protobufjs';
import { loadProtoRoot, decodeMessage } from '../../src/api/proto.js';
import { cachingEncoder } from '../../src/daemon/response-encoder.js';
import { deepFreeze } from '../../src/runtime/store/record-cache.js';

const uid = '6f1c2d8e-4b1a-4c3e-9d7f-2a5b8c9e0f11';

function pod(i: number, state = 'SANDBOX_READY') {
  const name = `coredns-7db6d8ff4d-${i}x9k${uid.slice(0, 8)}`;
  return {
    id: `${i}`.padStart(64, 'a'),
    metadata: { name, uid: `${uid.slice(0, -2)}${String(i).padStart(2, '0')}`, namespace: 'kube-system', attempt: 0 },
    state,
    createdAt: '1764633600123456789',
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'kube-system', 'io.kubernetes.pod.uid': uid, 'k8s-app': 'kube-dns', 'pod-template-hash': '7db6d8ff4d' },
    annotations: { 'kubernetes.io/config.seen': '2026-12-01T23:59:59.123456789Z', 'kubernetes.io/config.source': 'api' },
    runtimeHandler: '',
  };
}

describe('cachingEncoder', async () => {
  const root = await loadProtoRoot('cri-v1');
  const type = (name: string): Type => root.lookupType(`runtime.v1.${name}`);
  const plain = (t: Type, obj: object) => Buffer.from(t.encode(t.fromObject(obj as Record<string, unknown>)).finish());

  it('encodes a list answer item by item into the bytes protobufjs gives, and sees a changed item', () => {
    const t = type('ListPodSandboxResponse');
    const encode = cachingEncoder(t);
    const answer = { items: Array.from({ length: 10 }, (_, i) => pod(i)) };
    expect(encode(answer)).toEqual(plain(t, answer));
    expect(encode(answer)).toEqual(plain(t, answer));
    expect(encode.cached()).toBe(10);
    // One pod's sandbox died: its new state must show on the next relist, not the cached bytes.
    const changed = { items: answer.items.map((p, i) => (i === 3 ? { ...p, state: 'SANDBOX_NOTREADY' } : p)) };
    const bytes = encode(changed);
    expect(bytes).toEqual(plain(t, changed));
    expect((decodeMessage(root, 'runtime.v1.ListPodSandboxResponse', bytes) as any).items[3].state).toBe('SANDBOX_NOTREADY');
    expect(encode({ items: [] })).toEqual(plain(t, { items: [] }));
  });

  it('keeps a whole answer under its content: a container that exited shows EXITED at once', () => {
    const t = type('ContainerStatusResponse');
    const encode = cachingEncoder(t);
    const status = {
      id: 'c'.repeat(64), metadata: { name: 'app', attempt: 1 }, state: 'CONTAINER_RUNNING', createdAt: '1764633600123456789',
      startedAt: '1764633600223456789', finishedAt: '0', exitCode: 0, image: { image: 'registry.k8s.io/pause:3.9', annotations: {} },
      imageRef: `sha256:${'d'.repeat(64)}`, reason: '', message: '', labels: pod(1).labels, annotations: { 'io.kubernetes.container.hash': '4f9a1c2b' },
      mounts: [], logPath: '/var/log/pods/kube-system_coredns/app/1.log',
    };
    const running = { status, info: {} };
    expect(encode(running)).toEqual(plain(t, running));
    const exited = { status: { ...status, state: 'CONTAINER_EXITED', finishedAt: '1764633700123456789', exitCode: 137, reason: 'OOMKilled' }, info: {} };
    expect(decodeMessage<any>(root, 'runtime.v1.ContainerStatusResponse', encode(exited)).status).toMatchObject({ state: 'CONTAINER_EXITED', exitCode: 137 });
    expect(encode(exited)).toEqual(plain(t, exited));
  });

  it('keeps the bytes of frozen list items by identity, and a new frozen item for a changed pod shows its state', () => {
    const t = type('ListPodSandboxResponse');
    const encode = cachingEncoder(t);
    const items = Array.from({ length: 10 }, (_, i) => deepFreeze(pod(i)));
    const first = encode({ items });
    expect(first).toEqual(plain(t, { items }));
    expect(encode({ items })).toEqual(first);
    expect(encode.cached()).toBe(0); // no content keys for frozen items
    const changed = items.map((p, i) => (i === 3 ? deepFreeze({ ...p, state: 'SANDBOX_NOTREADY' }) : p));
    const bytes = encode({ items: changed });
    expect(bytes).toEqual(plain(t, { items: changed }));
    expect((decodeMessage(root, 'runtime.v1.ListPodSandboxResponse', bytes) as any).items[3].state).toBe('SANDBOX_NOTREADY');
  });

  it('forgets entries the recent answers did not use', () => {
    const encode = cachingEncoder(type('ListPodSandboxResponse'));
    encode({ items: Array.from({ length: 20 }, (_, i) => pod(i)) });
    for (let i = 0; i < 40; i++) encode({ items: [pod(0)] });
    expect(encode.cached()).toBe(1);
  });
});
