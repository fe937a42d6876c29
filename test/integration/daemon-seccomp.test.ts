// Seccomp profiles as kubelet and critest send them, for pods and containers, on runtime.v1 and
// runtime.v1alpha2 through one real `isulats daemon`: the deprecated seccomp_profile_path
// (`localhost/<absolute path>`, `runtime/default`, `docker/default`, `unconfined`) and the
// structured `seccomp` field (RuntimeDefault, Unconfined, Localhost + localhost_ref), read as
// containerd reads them. What applies is checked where it runs: the Seccomp mode of the pause
// process and of the container's own process (/proc/PID/status), and a chmod the profile denies.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadCriServices, type CriVersion } from '../../src/api/proto.js';
import { inCgroupOf, listProcesses } from '../rig/host-cleanup.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let daemon: IsulatsDaemon;
let dir: string;
let profilePath: string;
let BUSYBOX: string;
const pods: Array<{ version: CriVersion; id: string }> = [];

/** Denies chmod and nothing else: its effect tells it apart from RuntimeDefault and from no profile. */
const DENY_CHMOD = { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['chmod', 'fchmod', 'fchmodat', 'fchmodat2'], action: 'SCMP_ACT_ERRNO' }] };

function call(version: CriVersion, method: string, req: object): Promise<any> {
  return loadCriServices(version).then(
    (svc) =>
      new Promise((resolve, reject) => {
        const client = new (svc.RuntimeService as any)(daemon.endpoint, grpc.credentials.createInsecure());
        client[method](req, { deadline: Date.now() + 60_000 }, (err: grpc.ServiceError | null, res: unknown) => {
          client.close();
          if (err) reject(err);
          else resolve(res);
        });
      }),
  );
}

/** The Seccomp field of /proc/PID/status (0 none, 2 filter) of the process in `id`'s cgroup. */
async function seccompModeOf(id: string): Promise<string> {
  const [proc] = (await listProcesses()).filter((p) => inCgroupOf(p, new Set([id])));
  if (!proc) throw new Error(`no process in the cgroup of ${id}`);
  const { readFile } = await import('node:fs/promises');
  return /^Seccomp:\s+(\d)/m.exec(await readFile(`/proc/${proc.pid}/status`, 'utf8'))![1]!;
}

type SecurityContext = { seccompProfilePath?: string; seccomp?: { profileType: string; localhostRef?: string } };

/** A pod and a container with the same seccomp setting, both started. */
async function podAndContainer(version: CriVersion, sc: SecurityContext): Promise<{ podId: string; containerId: string }> {
  const uid = randomUUID();
  const name = `seccomp-pod-${uid}`;
  const config = {
    metadata: { name, uid, namespace: 'seccomp-test', attempt: 0 },
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'seccomp-test', 'io.kubernetes.pod.uid': uid },
    linux: { securityContext: { ...sc } },
  };
  const { podSandboxId } = await call(version, 'RunPodSandbox', { config });
  pods.push({ version, id: podSandboxId });
  const { containerId } = await call(version, 'CreateContainer', {
    podSandboxId,
    config: { metadata: { name: 'app', attempt: 0 }, image: { image: BUSYBOX }, command: ['sleep', '3600'], linux: { securityContext: { ...sc } } },
    sandboxConfig: config,
  });
  await call(version, 'StartContainer', { containerId });
  return { podId: podSandboxId, containerId };
}

async function chmodDenied(version: CriVersion, containerId: string): Promise<boolean> {
  const r = await call(version, 'ExecSync', { containerId, cmd: ['chmod', '700', '/tmp'], timeout: '10' });
  return r.exitCode !== 0 && r.stderr.toString().includes('Operation not permitted');
}

beforeAll(async () => {
  const env = rigEnv();
  BUSYBOX = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-secc-');
  profilePath = join(dir, 'deny-chmod.json');
  await writeFile(profilePath, JSON.stringify(DENY_CHMOD));
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
  await loadCriServices('v1').then(async (svc) => {
    await new Promise<void>((resolve, reject) => {
      const client = new (svc.ImageService as any)(daemon.endpoint, grpc.credentials.createInsecure());
      client.PullImage({ image: { image: BUSYBOX } }, { deadline: Date.now() + 120_000 }, (err: Error | null) => {
        client.close();
        if (err) reject(err);
        else resolve();
      });
    });
  });
}, 180_000);

afterEach(async () => {
  while (pods.length) {
    const { version, id } = pods.pop()!;
    await call(version, 'StopPodSandbox', { podSandboxId: id }).catch(() => undefined);
    await call(version, 'RemovePodSandbox', { podSandboxId: id }).catch(() => undefined);
  }
});

afterAll(async () => {
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
}, 120_000);

const LOCAL = () => profilePath;
const cases: Array<[string, () => SecurityContext, { mode: string; chmodDenied: boolean }]> = [
  ['seccomp_profile_path localhost/<absolute path>', () => ({ seccompProfilePath: `localhost/${LOCAL()}` }), { mode: '2', chmodDenied: true }],
  ['seccomp_profile_path runtime/default', () => ({ seccompProfilePath: 'runtime/default' }), { mode: '2', chmodDenied: false }],
  ['seccomp_profile_path docker/default', () => ({ seccompProfilePath: 'docker/default' }), { mode: '2', chmodDenied: false }],
  ['seccomp_profile_path unconfined', () => ({ seccompProfilePath: 'unconfined' }), { mode: '0', chmodDenied: false }],
  ['seccomp Localhost with an absolute localhost_ref', () => ({ seccomp: { profileType: 'Localhost', localhostRef: LOCAL() } }), { mode: '2', chmodDenied: true }],
  ['seccomp Localhost with a localhost/ localhost_ref', () => ({ seccomp: { profileType: 'Localhost', localhostRef: `localhost/${LOCAL()}` } }), { mode: '2', chmodDenied: true }],
  ['seccomp RuntimeDefault', () => ({ seccomp: { profileType: 'RuntimeDefault' } }), { mode: '2', chmodDenied: false }],
  ['seccomp Unconfined', () => ({ seccomp: { profileType: 'Unconfined' } }), { mode: '0', chmodDenied: false }],
  ['the structured field over the deprecated path', () => ({ seccompProfilePath: 'unconfined', seccomp: { profileType: 'Localhost', localhostRef: LOCAL() } }), { mode: '2', chmodDenied: true }],
];

for (const version of ['v1', 'v1alpha2'] as const) {
  describe(`runtime.${version}`, () => {
    it.each(cases)('applies %s to the pod and the container', async (_what, sc, want) => {
      const { podId, containerId } = await podAndContainer(version, sc());
      expect(await seccompModeOf(podId)).toBe(want.mode);
      expect(await seccompModeOf(containerId)).toBe(want.mode);
      expect(await chmodDenied(version, containerId)).toBe(want.chmodDenied);
    });

    it.each<[string, () => SecurityContext, RegExp]>([
      ['a path without localhost/', () => ({ seccompProfilePath: LOCAL() }), /invalid seccomp profile/],
      ['a localhost/ path that does not exist', () => ({ seccompProfilePath: `localhost/${LOCAL()}.missing` }), /cannot load seccomp profile/],
      ['a localhost_ref with RuntimeDefault', () => ({ seccomp: { profileType: 'RuntimeDefault', localhostRef: LOCAL() } }), /localhost_ref must only be set/],
    ])('refuses %s for a pod with InvalidArgument', async (_what, sc, error) => {
      const uid = randomUUID();
      const config = { metadata: { name: `bad-seccomp-${uid}`, uid, namespace: 'seccomp-test', attempt: 0 }, linux: { securityContext: sc() } };
      const err = (await call(version, 'RunPodSandbox', { config }).then((r: { podSandboxId: string }) => pods.push({ version, id: r.podSandboxId }), (e: unknown) => e)) as grpc.ServiceError;
      expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(err.details).toMatch(error);
      const listed = await call(version, 'ListPodSandbox', { filter: { labelSelector: {} } });
      expect(listed.items.filter((p: { metadata: { uid: string } }) => p.metadata.uid === uid)).toEqual([]);
    });
  });
}
