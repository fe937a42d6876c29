import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CNI_BIN_DIR, writeBridgeConflist, type CniNetwork } from './cni-conf.js';
import { containerdConfigToml, plainHttpHostsToml } from './containerd-config.js';
import { openCriClient } from './cri-client.js';
import { freePort } from './free-port.js';
import {
  deleteLink, inCgroupOf, isUnder, killPids, listProcesses, removeByPrefix, removeCgroupsNamed, shimSocketPath,
  unmountUnder,
} from './host-cleanup.js';
import { writeOwner } from './owner.js';
import { commandLineMentions, pidAlive, stopPid } from './proc.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { GiveUp, waitFor } from './wait.js';

const CONTAINERD_BIN = '/usr/bin/containerd';
const CNI_RESULTS_DIR = '/var/lib/cni/results';
/** Where this containerd records sandbox and container IDs (CRI metadata and task bundles). */
const ID_DIRS = [
  'root/io.containerd.grpc.v1.cri/sandboxes',
  'root/io.containerd.grpc.v1.cri/containers',
  'state/io.containerd.runtime.v2.task/k8s.io',
];
const PATH_ENV = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ContainerdOptions {
  /** Image containerd uses for pod sandboxes (our pause image in the local registry). */
  sandboxImage: string;
  /** Registries (`host:port`) containerd must reach over plain http. */
  plainHttpRegistries?: string[];
  /**
   * Dir of another containerd build (e.g. trixie's 1.7, see containerd17.ts): its containerd runs,
   * and the dir goes first on PATH so containerd starts its own containerd-shim-runc-v2.
   */
  binDir?: string;
  /** Enable containerd 1.7's NRI on `<dir>/nri.sock` (no pre-installed plugins). */
  nri?: boolean;
}

export interface Containerd {
  /** `unix:///tmp/ist-ctd-XXXXXX/c.sock` */
  endpoint: string;
  socket: string;
  /** `127.0.0.1:PORT` of the CRI streaming server. */
  streamAddress: string;
  cniConfDir: string;
  network: CniNetwork;
  /** Per-registry hosts.toml dir; add more with addPlainHttpRegistry. */
  certsDir: string;
  dir: string;
  pid: number;
  logPath: string;
  /** containerd's NRI socket, when started with `nri`. */
  nriSocket?: string;
  addPlainHttpRegistry(host: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts Debian's containerd with its root, state, socket, CNI config and logs in one temp dir. */
export async function startContainerd(opts: ContainerdOptions): Promise<Containerd> {
  const dir = await makeTempDir('ist-ctd-');
  const socket = join(dir, 'c.sock');
  const paths = {
    root: join(dir, 'root'),
    state: join(dir, 'state'),
    cniConfDir: join(dir, 'net.d'),
    certsDir: join(dir, 'certs.d'),
    leaseDir: join(dir, 'cni-leases'),
    logPath: join(dir, 'containerd.log'),
    configPath: join(dir, 'config.toml'),
  };
  const nri = opts.nri
    ? { socketPath: join(dir, 'nri.sock'), pluginDir: join(dir, 'nri-plugins'), pluginConfigDir: join(dir, 'nri-conf') }
    : undefined;
  for (const d of [paths.root, paths.state, paths.cniConfDir, paths.certsDir, paths.leaseDir]) await mkdir(d);
  if (nri) for (const d of [nri.pluginDir, nri.pluginConfigDir]) await mkdir(d);
  const network = await writeBridgeConflist(paths.cniConfDir, paths.leaseDir);
  let pid: number | undefined;
  const cleanup = (): Promise<void> => teardown({ dir, socket, network, pid });

  try {
    const addPlainHttpRegistry = async (host: string): Promise<void> => {
      await mkdir(join(paths.certsDir, host), { recursive: true });
      await writeFile(join(paths.certsDir, host, 'hosts.toml'), plainHttpHostsToml(host));
    };
    for (const host of opts.plainHttpRegistries ?? []) await addPlainHttpRegistry(host);
    const streamPort = await freePort();
    await writeFile(paths.configPath, containerdConfigToml({
      root: paths.root,
      state: paths.state,
      socket,
      sandboxImage: opts.sandboxImage,
      streamPort,
      cniBinDir: CNI_BIN_DIR,
      cniConfDir: paths.cniConfDir,
      certsDir: paths.certsDir,
      nri,
    }));

    const logFd = openSync(paths.logPath, 'a');
    const bin = opts.binDir ? join(opts.binDir, 'containerd') : CONTAINERD_BIN;
    const child = spawn(bin, ['--config', paths.configPath], {
      stdio: ['ignore', logFd, logFd],
      env: { ...process.env, PATH: opts.binDir ? `${opts.binDir}:${PATH_ENV}` : PATH_ENV },
    });
    closeSync(logFd);
    child.unref();
    pid = child.pid;
    if (pid === undefined) throw new Error('containerd did not start');
    await writeOwner<ContainerdOwnerData>(dir, { containerdPid: pid, socket, network });
    const endpoint = `unix://${socket}`;
    await waitCriReady(endpoint, pid, paths.logPath);
    return {
      endpoint,
      socket,
      streamAddress: `127.0.0.1:${streamPort}`,
      cniConfDir: paths.cniConfDir,
      network,
      certsDir: paths.certsDir,
      dir,
      pid,
      logPath: paths.logPath,
      nriSocket: nri?.socketPath,
      addPlainHttpRegistry,
      stop: cleanup,
    };
  } catch (error) {
    const log = await readFile(paths.logPath, 'utf8').catch(() => '');
    await cleanup();
    const tail = log.split('\n').slice(-20).join('\n');
    throw new Error(`${(error as Error).message}\ncontainerd log tail:\n${tail}`);
  }
}

/** Waits until containerd's CRI plugin answers Status with RuntimeReady and NetworkReady. */
async function waitCriReady(endpoint: string, pid: number, logPath: string): Promise<void> {
  const client = openCriClient(endpoint);
  try {
    await waitFor(async () => {
      if (!(await pidAlive(pid))) throw new GiveUp(`containerd exited; see ${logPath}`);
      const res = await client.runtime('Status', {}, 2_000).catch((error: { code?: number }) => {
        // UNIMPLEMENTED: the CRI plugin failed to load and never will.
        if (error.code === 12) throw new GiveUp(`containerd serves no CRI; see ${logPath}`);
        throw error;
      });
      const conditions: Array<{ type: string; status: boolean }> = res.status?.conditions ?? [];
      const ready = (type: string): boolean => conditions.some((c) => c.type === type && c.status);
      return ready('RuntimeReady') && ready('NetworkReady');
    }, { timeoutMs: 60_000, intervalMs: 200, what: `containerd CRI at ${endpoint}` });
  } finally {
    client.close();
  }
}

export interface ContainerdOwnerData {
  containerdPid: number;
  socket: string;
  network: CniNetwork;
}

interface TeardownInput {
  dir: string;
  socket: string;
  network: CniNetwork;
  pid: number | undefined;
}

/** Tears down a rig containerd from its dir's owner record (for a run whose owner died). */
export async function teardownContainerdDir(dir: string, data: ContainerdOwnerData): Promise<void> {
  await teardown({ dir, socket: data.socket, network: data.network, pid: data.containerdPid });
}

/**
 * Leaves nothing behind: pods removed through CRI (so CNI DEL runs), containerd stopped, then any
 * shim or container process of ours killed by PID, mounts under our dir unmounted, our bridge,
 * leases and result caches deleted, and the temp dir removed.
 */
async function teardown(input: TeardownInput): Promise<void> {
  const { dir, socket, network, pid } = input;
  if (pid !== undefined && (await commandLineMentions(pid, dir))) {
    await removeAllPods(`unix://${socket}`).catch(() => undefined);
    await stopPid(pid, 10_000);
  }
  const ids = await knownTaskIds(dir);
  const processes = await listProcesses();
  const shims = processes.filter((p) => p.argv[0]?.includes('containerd-shim') && p.argv.some((a) => a.includes(dir)));
  for (const shim of shims) {
    const at = shim.argv.indexOf('-id');
    if (at >= 0 && shim.argv[at + 1]) ids.add(shim.argv[at + 1]!);
  }
  // Container processes live in another mount namespace (their /proc/PID/root reads "/"): find
  // them by the cgroup runc named after each sandbox or container ID.
  const tasks = processes.filter((p) => !shims.includes(p) &&
    (inCgroupOf(p, ids) || p.argv.some((a) => a.includes(dir)) || isUnder(p.root, dir) || isUnder(p.cwd, dir)));
  await killPids(tasks.map((p) => p.pid));
  await killPids(shims.map((p) => p.pid));
  for (const shim of shims) {
    const sock = shimSocketPath(shim.argv);
    if (sock) await rm(sock, { force: true });
  }
  await removeRuntimeLeftovers(dir, network, ids);
}

/**
 * What a runtime of ours may leave on the host once its processes are gone:
 * cgroups named after our IDs, mounts under its dir, its bridge, host-local
 * leases and libcni's cached results (kept per network and sandbox; without a
 * CNI DEL, after a crash, they stay behind); then the dir itself.
 */
export async function removeRuntimeLeftovers(dir: string, network: Pick<CniNetwork, 'bridge' | 'name'>, ids: ReadonlySet<string>): Promise<void> {
  await removeCgroupsNamed(ids);
  await unmountUnder(dir);
  await deleteLink(network.bridge);
  await rm(join('/var/lib/cni/networks', network.name), { recursive: true, force: true });
  await removeByPrefix(CNI_RESULTS_DIR, `${network.name}-`);
  for (const id of ids) await rm(join(CNI_RESULTS_DIR, `cni-loopback-${id}-lo`), { force: true });
  await removeTempDir(dir);
}

/** Every sandbox and container ID this containerd ever recorded under its dirs. */
async function knownTaskIds(dir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const sub of ID_DIRS) {
    for (const id of await readdir(join(dir, sub)).catch(() => [] as string[])) {
      if (/^[0-9a-f]{64}$/.test(id)) ids.add(id);
    }
  }
  return ids;
}

/** Best effort, bounded: stop and remove every pod of a runtime whose pods are all ours, so CNI DEL runs. */
export async function removeAllPods(endpoint: string, perCallMs = 15_000): Promise<void> {
  const client = openCriClient(endpoint);
  try {
    const list = await client.runtime('ListPodSandbox', {}, 10_000);
    for (const pod of (list.items as Array<{ id: string }>) ?? []) {
      await client.runtime('StopPodSandbox', { podSandboxId: pod.id }, perCallMs).catch(() => undefined);
      await client.runtime('RemovePodSandbox', { podSandboxId: pod.id }, perCallMs).catch(() => undefined);
    }
  } finally {
    client.close();
  }
}
