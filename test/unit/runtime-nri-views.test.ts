// The engine's NRI views of its records and the resource conversions.
import { describe, expect, it } from 'vitest';
import { containerView, nriResourcesFromCri, oneLine, podView, runtimeUpdateFromNri } from '../../src/runtime/nri/views.js';
import type { SandboxRecord } from '../../src/runtime/sandbox/sandbox-record.js';
import type { ContainerRecord } from '../../src/runtime/container/container-record.js';
import type * as nri from '../../src/api/nri.js';

const sandbox: SandboxRecord = {
  id: 'a'.repeat(64),
  name: 'k8s_POD_web_ns_uid_0',
  config: { metadata: { name: 'web', namespace: 'ns', uid: 'uid-1' }, labels: { app: 'web' }, annotations: { note: 'x' } },
  state: 'SANDBOX_READY',
  createdAt: '1',
  pid: 4242,
  namespaces: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' },
  netnsPath: '/run/netns/x',
  ips: ['10.88.0.5'],
  hostname: 'web',
  cgroupParent: '/isulats',
  cgroupsPath: `/isulats/${'a'.repeat(64)}`,
  pauseImageId: 'sha256:p',
  runtimeHandler: '',
};

const container: ContainerRecord = {
  id: 'b'.repeat(64),
  sandboxId: sandbox.id,
  name: 'k8s_app_web_ns_uid_0',
  config: { metadata: { name: 'app' }, labels: { tier: 'front' }, annotations: { a: '1' } },
  state: 'CONTAINER_EXITED',
  createdAt: '10',
  startedAt: '20',
  finishedAt: '30',
  exitCode: 137,
  reason: 'Error',
  message: '',
  imageRef: 'sha256:i',
  imageId: 'sha256:i',
  imageName: 'busybox',
  logPath: '',
  bundle: '/nonexistent',
  pid: 77,
  cgroupsPath: '/isulats/x',
  stopSignal: 'SIGTERM',
  user: { uid: 0, gid: 0, supplementalGroups: [] },
};

describe('NRI views of engine records', () => {
  it('shows a pod with its metadata, IP, cgroup and shared namespaces', () => {
    const pod = podView(sandbox);
    expect(pod).toMatchObject({ id: sandbox.id, name: 'web', namespace: 'ns', uid: 'uid-1', labels: { app: 'web' }, annotations: { note: 'x' }, pid: 4242, ips: ['10.88.0.5'] });
    expect(pod.linux).toMatchObject({ cgroupParent: '/isulats', cgroupsPath: sandbox.cgroupsPath });
    expect(pod.linux!.namespaces!.map((n) => n.type)).toEqual(['network', 'ipc']);
  });

  it('shows a pod without a pause by its pinned namespaces and PID 0', () => {
    const view = podView({ ...sandbox, pid: 0, noInfra: true, ipcnsPath: '/run/ipcns/x', utsnsPath: '/run/utsns/x' });
    expect(view.pid).toBe(0);
    expect(view.linux?.namespaces).toEqual([
      { type: 'network', path: '/run/netns/x' },
      { type: 'ipc', path: '/run/ipcns/x' },
      { type: 'uts', path: '/run/utsns/x' },
    ]);
  });

  it('names a container by its CRI name and maps EXITED to NRI STOPPED', () => {
    const spec = { process: { args: ['sleep', '1'], env: ['A=1'] }, linux: { cgroupsPath: '/isulats/x' } };
    const c = containerView(container, spec);
    expect(c).toMatchObject({ id: container.id, podSandboxId: sandbox.id, name: 'app', state: 'CONTAINER_STOPPED', labels: { tier: 'front' }, args: ['sleep', '1'], env: ['A=1'], pid: 77, exitCode: 137 });
    expect(containerView({ ...container, state: 'CONTAINER_RUNNING' }).state).toBe('CONTAINER_RUNNING');
    expect(containerView(container, spec, 'CONTAINER_UNKNOWN').state).toBe('CONTAINER_UNKNOWN');
  });
});

describe('resource conversions', () => {
  it('turns a CRI resource update into NRI resources, leaving zeros unset', () => {
    const r = nriResourcesFromCri({ cpuShares: 512, cpuQuota: 0, memoryLimitInBytes: '1048576', cpusetCpus: '0' });
    expect(r.cpu).toMatchObject({ shares: { value: '512' }, quota: undefined, cpus: '0' });
    expect(r.memory).toMatchObject({ limit: { value: '1048576' } });
  });

  it('turns a plugin update into the runtime update call, skipping unset values', () => {
    const res = { cpu: { shares: { value: '256' }, quota: null, period: null, cpus: '', mems: '' }, memory: { limit: { value: '67108864' } }, unified: {} } as unknown as nri.LinuxResources;
    expect(runtimeUpdateFromNri(res)).toEqual({
      cpu: { shares: 256, quota: undefined, period: undefined, cpus: undefined, mems: undefined },
      memory: { limit: 67108864, swap: undefined },
    });
    expect(runtimeUpdateFromNri(null)).toEqual({});
  });

  it('puts a multi-line message on one line', () => {
    expect(oneLine('NRI: failed\n  plugin a: x\n  plugin b: y\n')).toBe('NRI: failed; plugin a: x; plugin b: y');
  });
});
