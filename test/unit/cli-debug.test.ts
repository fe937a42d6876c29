import { describe, expect, it } from 'vitest';
import { findDebugTarget } from '../../src/cli/debug/debug-target.js';
import { createAndStartDebugContainer } from '../../src/cli/debug/create-with-fallback.js';
import { debugContainerConfig } from '../../src/cli/debug/debug-container-config.js';
import { sandboxConfigFromStatus } from '../../src/cli/debug/sandbox-config.js';
import { sharesPidNamespace } from '../../src/cli/debug/check-target-pid.js';
import { IsulatsError } from '../../src/runtime/errors.js';
import type * as cri from '../../src/api/cri.js';

const hex = (c: string) => c.repeat(64);
const POD = hex('a');
const OTHER_POD = hex('b');
const pods = [
  { id: POD, state: 'SANDBOX_READY' as const, metadata: { name: 'web-7d9c5b6f4-x2k8q', namespace: 'shop' } },
  { id: OTHER_POD, state: 'SANDBOX_NOTREADY' as const, metadata: { name: 'old-6c8d', namespace: 'shop' } },
];
const ctr = (id: string, podSandboxId: string, name: string, state: cri.Container['state'], createdAt = '1') => ({
  id, podSandboxId, state, createdAt, metadata: { name, attempt: 0 },
});
const containers = [
  ctr(hex('c'), POD, 'nginx', 'CONTAINER_EXITED', '1'),
  ctr(hex('d'), POD, 'nginx', 'CONTAINER_RUNNING', '2'),
  ctr(hex('e'), POD, 'sidecar', 'CONTAINER_CREATED'),
  ctr(`ab${'0'.repeat(62)}`, OTHER_POD, 'app', 'CONTAINER_EXITED'),
];

describe('findDebugTarget', () => {
  it.each([
    ['a container ID prefix', 'ddd', { podId: POD, container: { id: hex('d'), name: 'nginx' }, namedContainer: true }],
    ['pod-name/container-name, preferring the running attempt', 'web-7d9c5b6f4-x2k8q/nginx', { podId: POD, container: { id: hex('d'), name: 'nginx' }, namedContainer: true }],
    ['a pod ID prefix (its one running container is the PID target)', 'aaaa', { podId: POD, container: { id: hex('d'), name: 'nginx' }, namedContainer: false }],
  ])('resolves %s', (_what, input, want) => {
    expect(findDebugTarget(pods, containers, input)).toEqual(want);
  });

  it.each([
    ['', /TARGET cannot be empty/],
    ['fff', /no container or pod matches "fff"/],
    ['a', /"a" is ambiguous: it matches container ab00000000000, pod aaaaaaaaaaaaa/],
    ['ccc', /target container nginx \(ccccccccccccc\) is not running \(exited\)/],
    ['eee', /target container sidecar \(eeeeeeeeeeeee\) is not running \(created\)/],
    ['bbb', /pod old-6c8d is not ready/],
    ['web-7d9c5b6f4-x2k8q/db', /pod "web-7d9c5b6f4-x2k8q" has no container named "db"/],
    ['nope/nginx', /no pod named "nope"/],
    ['a/b/c', /is not an ID or pod-name\/container-name/],
  ])('refuses %j', (input, message) => {
    expect(() => findDebugTarget(pods, containers, input)).toThrow(message);
  });
});

describe('createAndStartDebugContainer', () => {
  const config = debugContainerConfig({ image: 'busybox', command: [], tty: true, stdin: true, targetContainerId: hex('d'), targetOf: hex('d'), name: 'debugger-x' });

  function fakeRuntime(refuseTarget: (config: cri.ContainerConfigIn) => Error | undefined) {
    const calls: string[] = [];
    return {
      calls,
      createContainer: async (req: cri.CreateContainerRequestIn) => {
        const pid = req.config?.linux?.securityContext?.namespaceOptions?.pid;
        calls.push(`create ${pid}`);
        const err = refuseTarget(req.config!);
        if (err && pid === 'TARGET') throw err;
        return { containerId: `id-${calls.length}` };
      },
      startContainer: async (req: cri.StartContainerRequestIn) => void calls.push(`start ${req.containerId}`),
      removeContainer: async (req: cri.RemoveContainerRequestIn) => void calls.push(`remove ${req.containerId}`),
    };
  }

  it('shares the target PID namespace when the runtime takes TARGET', async () => {
    const rt = fakeRuntime(() => undefined);
    const warnings: string[] = [];
    expect(await createAndStartDebugContainer(rt, POD, {}, config, (w) => warnings.push(w))).toEqual({ containerId: 'id-1', sharesTargetPid: true });
    expect(rt.calls).toEqual(['create TARGET', 'start id-1']);
    expect(warnings).toEqual([]);
  });

  it("falls back to the pod's namespaces, with one warning, when the runtime refuses TARGET", async () => {
    const rt = fakeRuntime(() => new IsulatsError('invalid-argument', 'unsupported namespace mode TARGET'));
    const warnings: string[] = [];
    expect(await createAndStartDebugContainer(rt, POD, {}, config, (w) => warnings.push(w))).toEqual({ containerId: 'id-2', sharesTargetPid: false });
    expect(rt.calls).toEqual(['create TARGET', 'create POD', 'start id-2']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/does not support sharing the target's PID namespace \(NamespaceMode TARGET\): unsupported namespace mode TARGET; using the pod's namespaces/);
  });

  it('removes a container that was created but failed to start before falling back', async () => {
    const rt = fakeRuntime(() => undefined);
    let starts = 0;
    rt.startContainer = async (req) => {
      rt.calls.push(`start ${req.containerId}`);
      if (starts++ === 0) throw new Error('runc: pid namespace path not found');
    };
    const r = await createAndStartDebugContainer(rt, POD, {}, config, () => undefined);
    expect(r).toEqual({ containerId: 'id-4', sharesTargetPid: false });
    expect(rt.calls).toEqual(['create TARGET', 'start id-1', 'remove id-1', 'create POD', 'start id-4']);
  });

  it('does not fall back when the runtime is unreachable', async () => {
    const rt = fakeRuntime(() => new IsulatsError('unavailable', 'cannot connect to unix:///x.sock'));
    await expect(createAndStartDebugContainer(rt, POD, {}, config, () => undefined)).rejects.toThrow(/cannot connect/);
    expect(rt.calls).toEqual(['create TARGET']);
  });
});

describe('sandboxConfigFromStatus', () => {
  const status = {
    metadata: { name: 'web', uid: 'u-1', namespace: 'shop', attempt: 1 },
    labels: { app: 'web' },
    annotations: { a: 'b' },
    linux: { namespaces: { options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD', targetId: '', userNsOptions: null } } },
  } as unknown as cri.PodSandboxStatus;

  it.each([
    ['containerd (Go field names)', { config: { log_directory: '/var/log/pods/shop_web_u-1', linux: { cgroup_parent: '/kubepods/podu-1' } } }],
    ['isulats (camelCase)', { config: { logDirectory: '/var/log/pods/shop_web_u-1', linux: { cgroupParent: '/kubepods/podu-1' } } }],
  ])('takes the log directory and cgroup parent from the verbose info of %s', (_who, info) => {
    const c = sandboxConfigFromStatus({ status, info: { info: JSON.stringify(info) } });
    expect(c.metadata).toEqual(status.metadata);
    expect(c.logDirectory).toBe('/var/log/pods/shop_web_u-1');
    expect(c.linux?.cgroupParent).toBe('/kubepods/podu-1');
    expect(c.labels).toEqual({ app: 'web' });
  });

  it('still gives the metadata without verbose info', () => {
    const c = sandboxConfigFromStatus({ status, info: {} });
    expect(c.metadata?.name).toBe('web');
    expect(c.logDirectory).toBe('');
  });
});

describe('sharesPidNamespace', () => {
  const backend = (pids: Record<string, number | undefined>) => ({
    containerStatus: async (req: cri.ContainerStatusRequestIn) => {
      const pid = pids[req.containerId!];
      return { status: null, info: pid === undefined ? {} : { info: JSON.stringify({ pid }) } } as unknown as cri.ContainerStatusResponse;
    },
  });
  const links: Record<string, string> = { '/proc/10/ns/pid': 'pid:[1]', '/proc/20/ns/pid': 'pid:[1]', '/proc/30/ns/pid': 'pid:[2]' };
  const readLink = async (p: string) => {
    if (!links[p]) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return links[p]!;
  };

  it.each([
    ['the same namespace', { dbg: 10, tgt: 20 }, true],
    ['another namespace (TARGET quietly ignored)', { dbg: 30, tgt: 20 }, false],
    ['no pid in the verbose info', { dbg: undefined, tgt: 20 }, undefined],
    ['a pid not visible here', { dbg: 40, tgt: 20 }, undefined],
  ])('tells %s', async (_what, pids, want) => {
    expect(await sharesPidNamespace(backend(pids), 'dbg', 'tgt', readLink)).toBe(want);
  });
});
