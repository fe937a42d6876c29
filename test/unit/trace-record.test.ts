// What a trace line says about a call: ids and names from kubelet-like requests and answers,
// the text and JSON forms, and which calls --filter and --slow let through.
import { describe, expect, it } from 'vitest';
import { callSubjects } from '../../src/trace/call-subjects.js';
import { formatJson, formatText, selected, type TraceRecord } from '../../src/trace/trace-record.js';
import { tracedMethods } from '../../src/trace/method-table.js';
import { preloadProtobuf } from '../../src/api/proto.js';

const POD = '3f9d2c1b0a8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c6b5a4938271605f4e';
const CTR = '9a8b7c6d5e4f30211203f4e5d6c7b8a99a8b7c6d5e4f30211203f4e5d6c7b8a9';

describe('call subjects', () => {
  it('names a new pod by namespace/name and its id from the answer', () => {
    const rq = { config: { metadata: { name: 'coredns-5d78c9869d-x2k4q', uid: 'e3b0c442-98fc-1c14-9afb-f4c8996fb924', namespace: 'kube-system', attempt: 0 }, labels: { 'io.kubernetes.pod.name': 'coredns-5d78c9869d-x2k4q' } }, runtimeHandler: '' };
    expect(callSubjects('RunPodSandbox', rq, { podSandboxId: POD })).toEqual({ name: 'kube-system/coredns-5d78c9869d-x2k4q', pod: POD });
  });

  it('tells a pod list filter from a container list filter, and counts items', () => {
    expect(callSubjects('ListPodSandbox', { filter: { id: POD, labelSelector: {} } }, { items: [{}, {}] })).toEqual({ pod: POD, count: 2 });
    expect(callSubjects('ListContainers', { filter: { id: CTR, podSandboxId: '', labelSelector: {} } }, { containers: [] })).toEqual({ container: CTR, count: 0 });
  });

  it('finds the container, its pod and image of CreateContainer', () => {
    const rq = { podSandboxId: POD, config: { metadata: { name: 'coredns', attempt: 0 }, image: { image: 'registry.k8s.io/coredns/coredns:v1.10.1' } } };
    expect(callSubjects('CreateContainer', rq, { containerId: CTR })).toEqual({ pod: POD, container: CTR, name: 'coredns', image: 'registry.k8s.io/coredns/coredns:v1.10.1' });
  });

  it('survives requests it cannot decode', () => {
    expect(callSubjects('Version', undefined, undefined)).toEqual({});
  });
});

describe('trace lines', () => {
  const rec: TraceRecord = { time: '2026-12-01T21:00:00.000Z', method: 'StopContainer', api: 'v1alpha2', subjects: { container: CTR }, durationMs: 1520.25, status: 'DEADLINE_EXCEEDED', error: 'context deadline exceeded' };

  it('prints one text line with short ids and the API when not v1', () => {
    expect(formatText(rec)).toBe('2026-12-01T21:00:00.000Z StopContainer(v1alpha2) ctr=9a8b7c6d5e4f3 1520.3ms DEADLINE_EXCEEDED: context deadline exceeded\n');
    expect(JSON.parse(formatJson(rec))).toEqual(rec);
  });

  it.each([
    [{ filter: /^Stop/ }, true],
    [{ filter: /Pod/ }, false],
    [{ slowMs: 1000 }, true],
    [{ slowMs: 2000 }, false],
    [{ filter: /Stop/, slowMs: 2000 }, false],
  ])('selects by %o: %s', (sel, want) => {
    expect(selected(rec, sel)).toBe(want);
  });
});

describe('method table', () => {
  it('covers both CRI versions, both services, server streams and the admin service', async () => {
    await preloadProtobuf();
    const methods = tracedMethods();
    const paths = methods.map((m) => m.path);
    for (const p of ['/runtime.v1.RuntimeService/RunPodSandbox', '/runtime.v1alpha2.RuntimeService/RunPodSandbox', '/runtime.v1.ImageService/PullImage', '/runtime.v1alpha2.ImageService/ImageFsInfo', '/isulats.admin.v1.Admin/Info']) {
      expect(paths).toContain(p);
    }
    expect(methods.find((m) => m.path === '/runtime.v1.RuntimeService/GetContainerEvents')!.responseStream).toBe(true);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
