// The processes each pod call spawns in `isulats daemon`, grandchildren included, counted with
// strace: a pod without a shared PID namespace (kubelet's default) has no pause, so RunPodSandbox
// is pinns and the CNI plugins, StopPodSandbox the CNI plugins; a pod with a shared PID namespace
// adds its pause's `runc run -d` (and `runc init`) at run and one `runc delete --force` at
// stop (it kills and deletes the pause: no `runc state` or `runc kill` first). RemovePodSandbox of a
// stopped pod spawns nothing.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { execName, execsPerCall, traceExecs, type CallWindow } from '../rig/exec-trace.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';

let daemon: IsulatsDaemon;
let c: RawCriClient;

/** What the pause runs (its own binary), not the engine's. */
const WORKLOAD = new Set(['pause']);

beforeAll(async () => {
  daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE });
  c = openCriClient(daemon.endpoint);
}, 120_000);

afterAll(async () => {
  c?.close();
  await daemon?.cleanup();
});

/** kubelet's pod config; `pid` 0 is POD (a shared PID namespace: a pause holds it), 1 CONTAINER. */
function podConfig(pid: 0 | 1): CriMessage {
  const uid = randomUUID();
  const name = `pod-procs-${pid ? 'container' : 'pod'}-pid-${uid}`;
  return {
    metadata: { name, uid, namespace: `pod-procs-${uid.slice(0, 8)}`, attempt: 0 },
    hostname: name.slice(0, 63),
    logDirectory: join(daemon.dir, 'logs', uid),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'pod-procs', 'io.kubernetes.pod.uid': uid },
    linux: { securityContext: { namespaceOptions: { pid } } },
  };
}

describe('processes per pod call (isulats daemon, runc, CNI)', () => {
  it('spawns the pause only for a shared PID namespace, and stops it with one runc delete', async () => {
    const windows: CallWindow[] = [];
    const call = async (label: string, method: string, request: CriMessage): Promise<CriMessage> => {
      // A pause between calls, so that what a daemon does just after answering still counts for its call.
      await sleep(150);
      windows.push({ label, start: Date.now() });
      return c.runtime(method, request, 60_000);
    };
    const ids: string[] = [];
    const trace = await traceExecs(daemon.pid);
    let execs;
    try {
      for (const [mode, pid] of [['no pause', 1], ['pause', 0]] as const) {
        const { podSandboxId } = await call(`RunPodSandbox (${mode})`, 'RunPodSandbox', { config: podConfig(pid) });
        ids.push(podSandboxId as string);
        await call(`PodSandboxStatus (${mode})`, 'PodSandboxStatus', { podSandboxId });
        await call(`StopPodSandbox (${mode})`, 'StopPodSandbox', { podSandboxId });
        await call(`RemovePodSandbox (${mode})`, 'RemovePodSandbox', { podSandboxId });
      }
      await sleep(300);
      windows.push({ label: 'end', start: Date.now() });
    } finally {
      execs = await trace.stop();
      for (const podSandboxId of ids) {
        await c.runtime('StopPodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
        await c.runtime('RemovePodSandbox', { podSandboxId }, 60_000).catch(() => undefined);
      }
    }
    const spawned = Object.fromEntries([...execsPerCall(execs, windows)].map(([label, list]) => [label, list.map(execName).filter((n) => !WORKLOAD.has(n)).sort()]));
    // The CNI plugins of the rig's network, as its RunPodSandbox and StopPodSandbox ran them.
    const cniAdd = spawned['RunPodSandbox (no pause)']!.filter((n) => n !== 'pinns');
    const cniDel = spawned['StopPodSandbox (no pause)']!;
    expect(cniAdd.length).toBeGreaterThan(0);
    expect(cniDel).toEqual(cniAdd);
    expect(spawned).toEqual({
      'RunPodSandbox (no pause)': [...cniAdd, 'pinns'].sort(),
      'PodSandboxStatus (no pause)': [],
      'StopPodSandbox (no pause)': cniDel,
      'RemovePodSandbox (no pause)': [],
      'RunPodSandbox (pause)': [...cniAdd, 'pinns', 'runc init', 'runc run'].sort(),
      'PodSandboxStatus (pause)': [],
      'StopPodSandbox (pause)': [...cniDel, 'runc delete'].sort(),
      'RemovePodSandbox (pause)': [],
      end: [],
    });
    for (const id of ids) expect(existsSync(join(daemon.state, 'runc', id))).toBe(false);
  }, 120_000);
});
