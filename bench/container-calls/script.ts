// The container calls both container benches make, in kubelet's order: a pod, then three
// containers (one stopped gracefully on SIGTERM, one stopped with timeout 0, one that exits by
// itself and is removed without a stop), each call's start time kept.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawCriClient } from '../../test/rig/cri-client.js';
import type { CallWindow } from '../../test/rig/exec-trace.js';

/** Exits 0 on SIGTERM at once (`wait` is interruptible; a bare sleep as PID 1 ignores SIGTERM). */
export const GRACEFUL = ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"];

export function podConfig(tag: string): Record<string, unknown> {
  const uid = randomUUID();
  return {
    metadata: { name: `bench-${tag}-${uid.slice(0, 8)}`, uid, namespace: 'default', attempt: 0 },
    hostname: `bench-${tag}`,
    logDirectory: join(tmpdir(), `ist-bench-logs-${uid}`),
    labels: { 'io.kubernetes.pod.name': `bench-${tag}`, 'io.kubernetes.pod.uid': uid },
    linux: {},
  };
}

export function containerConfig(name: string, image: string, command: string[]): Record<string, unknown> {
  return {
    metadata: { name, attempt: 0 },
    image: { image },
    command,
    logPath: `${name}/0.log`,
    labels: { 'io.kubernetes.container.name': name },
    linux: {},
  };
}

export async function containerCalls(cri: RawCriClient, image: string, tag: string): Promise<CallWindow[]> {
  const windows: CallWindow[] = [];
  const call = async (label: string, fn: () => Promise<Record<string, any>>): Promise<Record<string, any>> => {
    await sleep(300);
    windows.push({ label, start: Date.now() });
    return fn();
  };
  const sandboxConfig = podConfig(tag);
  const pod = await call('RunPodSandbox', () => cri.runtime('RunPodSandbox', { config: sandboxConfig }, 120_000));
  const podSandboxId = pod.podSandboxId as string;
  const create = (label: string, name: string, command: string[]) =>
    call(label, () => cri.runtime('CreateContainer', { podSandboxId, sandboxConfig, config: containerConfig(name, image, command) }, 120_000)).then((r) => r.containerId as string);

  const a = await create('CreateContainer', 'graceful', GRACEFUL);
  await call('StartContainer', () => cri.runtime('StartContainer', { containerId: a }, 120_000));
  await call('ContainerStatus', () => cri.runtime('ContainerStatus', { containerId: a }));
  await call('ListContainers', () => cri.runtime('ListContainers', {}));
  await call('ContainerStats', () => cri.runtime('ContainerStats', { containerId: a }));
  await call('ExecSync', () => cri.runtime('ExecSync', { containerId: a, cmd: ['true'], timeout: 10 }, 60_000));
  await call('StopContainer (SIGTERM, timeout 10)', () => cri.runtime('StopContainer', { containerId: a, timeout: 10 }, 60_000));
  await call('ContainerStatus (exited)', () => cri.runtime('ContainerStatus', { containerId: a }));
  await call('RemoveContainer (stopped)', () => cri.runtime('RemoveContainer', { containerId: a }, 60_000));

  const b = await create('CreateContainer (2)', 'killed', ['sleep', '3600']);
  await call('StartContainer (2)', () => cri.runtime('StartContainer', { containerId: b }, 120_000));
  await call('StopContainer (timeout 0)', () => cri.runtime('StopContainer', { containerId: b, timeout: 0 }, 60_000));
  await call('RemoveContainer (2, stopped)', () => cri.runtime('RemoveContainer', { containerId: b }, 60_000));

  const c = await create('CreateContainer (3)', 'exits', ['true']);
  await call('StartContainer (3)', () => cri.runtime('StartContainer', { containerId: c }, 120_000));
  await sleep(1500);
  await call('ContainerStatus (exited by itself)', () => cri.runtime('ContainerStatus', { containerId: c }));
  await call('RemoveContainer (exited by itself)', () => cri.runtime('RemoveContainer', { containerId: c }, 60_000));

  const d = await create('CreateContainer (4)', 'running', ['sleep', '3600']);
  await call('StartContainer (4)', () => cri.runtime('StartContainer', { containerId: d }, 120_000));
  await call('RemoveContainer (running)', () => cri.runtime('RemoveContainer', { containerId: d }, 60_000).catch((e: Error) => ({ error: e.message })));

  await call('StopPodSandbox', () => cri.runtime('StopPodSandbox', { podSandboxId }, 60_000));
  await call('RemovePodSandbox', () => cri.runtime('RemovePodSandbox', { podSandboxId }, 60_000));
  // The pod's log directory is the client's, as kubelet's is: removed by us, not the runtime.
  await rm(sandboxConfig.logDirectory as string, { recursive: true, force: true });
  await sleep(300);
  windows.push({ label: '(after the last call)', start: Date.now() });
  return windows;
}
