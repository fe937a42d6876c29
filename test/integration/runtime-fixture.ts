// Shared setup for runtime integration tests: a private engine root/state in
// a short /tmp dir, a bridge conflist of our own, a busybox image built from
// the host's busybox-static, and checks that nothing we made is left behind.
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Engine } from '../../src/runtime/engine.js';
import type { EngineOptions } from '../../src/runtime/config/engine-config.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { writeBridgeConflist, type CniNetwork } from '../rig/cni-conf.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { pidAlive, run } from '../rig/proc.js';

export const BUSYBOX_REF = 'isulats-test/busybox:rt';

export interface RuntimeFixture {
  dir: string;
  options: EngineOptions;
  engine: Engine;
  net: CniNetwork;
  /** Opens a second Engine on the same root (a new CLI process, as far as the engine knows). */
  reopen(): Promise<Engine>;
  dispose(): Promise<void>;
}

export async function openFixture(extra: Partial<EngineOptions> = {}): Promise<RuntimeFixture> {
  const dir = await makeTempDir('istrt-');
  const confDir = join(dir, 'cni');
  await mkdir(confDir);
  const net = await writeBridgeConflist(confDir, join(dir, 'leases'));
  const warnings: string[] = [];
  const options: EngineOptions = {
    root: join(dir, 'root'),
    state: join(dir, 'state'),
    cniConfDir: confDir,
    cniBinDirs: ['/usr/lib/cni'],
    cgroupParent: `/isulats-test-${dir.slice(-6)}`,
    warn: (m) => warnings.push(m),
    ...extra,
  };
  const engine = await Engine.open(options);
  const rootfs = join(dir, 'busybox-rootfs');
  await populateBusyboxRootfs(rootfs);
  await engine.images.buildFromRootfs(rootfs, BUSYBOX_REF, { Cmd: ['sh'], created: '2024-01-01T00:00:00Z' });
  const opened: Engine[] = [engine];
  return {
    dir,
    options,
    engine,
    net,
    async reopen() {
      const e = await Engine.open(options);
      opened.push(e);
      return e;
    },
    async dispose() {
      const e = opened[opened.length - 1]!;
      const { items } = await e.listPodSandbox({}).catch(() => ({ items: [] as Array<{ id: string }> }));
      for (const pod of items) await e.removePodSandbox({ podSandboxId: pod.id }).catch(() => undefined);
      for (const x of opened) await x.close().catch(() => undefined);
      await run('ip', ['link', 'del', net.bridge], { check: false });
      for (const mount of await mountsUnder(dir)) await run('umount', ['-l', mount], { check: false });
      for (const c of await readdir('/sys/fs/cgroup').catch(() => [] as string[])) await rmdir(join('/sys/fs/cgroup', c, options.cgroupParent!)).catch(() => undefined);
      await removeTempDir(dir);
    },
  };
}

export async function mountsUnder(dir: string): Promise<string[]> {
  const text = await readFile('/proc/self/mountinfo', 'utf8');
  return text
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((p) => p.startsWith(`${dir}/`));
}

/** IP leases host-local holds for our network (files named by IP). */
export async function leases(net: CniNetwork): Promise<string[]> {
  const names = await readdir(join(net.leaseDir, net.name)).catch(() => [] as string[]);
  return names.filter((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n));
}

export async function anyAlive(pids: number[]): Promise<boolean> {
  for (const pid of pids) if (pid > 0 && (await pidAlive(pid))) return true;
  return false;
}

export function podConfig(name: string, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, namespace: 'rt-test', uid: `uid-${name}`, attempt: 0 },
    hostname: name,
    logDirectory: '',
    ...extra,
  };
}

/** A pod as kubelet asks for it: a uid-suffixed name, kubelet's labels and annotations. */
export function kubeletShapedPod<X extends Record<string, unknown>>(name: string, namespace: string, extra?: X) {
  const uid = randomUUID();
  return {
    metadata: { name: `${name}-${uid.slice(0, 8)}`, namespace, uid, attempt: 0 },
    hostname: name,
    logDirectory: '',
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': namespace, 'io.kubernetes.pod.uid': uid },
    annotations: { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': new Date().toISOString() },
    ...(extra as X),
  };
}

/** A promise with its resolver, for hooks that signal and hold. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}
