// `isulats daemon` as a real process on the embedded engine, with everything it owns (root,
// state, socket, pid file, daemon.json, CNI conflist and leases, log) in one temp dir, and a
// teardown that leaves nothing behind: pods removed through CRI, the daemon stopped by PID,
// then conmon and container processes of ours killed, cgroups, mounts, bridge and leases removed.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { CNI_BIN_DIR, writeBridgeConflist, type CniNetwork } from './cni-conf.js';
import { openCriClient } from './cri-client.js';
import { removeAllPods, removeRuntimeLeftovers } from './containerd.js';
import { freePort } from './free-port.js';
import {
  inCgroupOf, isUnder, killPids, listProcesses,
  type ProcessInfo,
} from './host-cleanup.js';
import { commandLineMentions, pidAlive, signalPid, stopPid } from './proc.js';
import { readOwner, writeOwner } from './owner.js';
import { makeTempDir } from './temp-dir.js';
import { GiveUp, waitFor } from './wait.js';


/**
 * How the daemon is launched: `bin` = `node bin/isulats daemon` (the shipped dist build, the
 * default); `source` = the daemon command bundled from src/ into .tmp/ with packages left external
 * (as test/integration/daemon-grpc.test.ts does; removed by the last cleanup()), a stop-gap for when the dist build cannot run it.
 * `ISULATS_E2E_DAEMON=source` picks it from the environment.
 */
export type DaemonLauncher = 'bin' | 'source';

export interface IsulatsDaemonOptions {
  launcher?: DaemonLauncher;
  /** `pod-sandbox-image`; the daemon's built-in local pause image when absent. */
  podSandboxImage?: string;
  logLevel?: string;
  /** Extra daemon.json keys. */
  extraConfig?: Record<string, unknown>;
  /** Node.js options placed before the script (benchmarks comparing V8 settings). */
  nodeArgs?: string[];
  /** Extra environment of the daemon process. */
  env?: Record<string, string>;
  /** Another build's `bin/isulats` (a before/after bench): the `bin` launcher runs it instead of this repo's. */
  binPath?: string;
  /** A single executable (scripts/build-sea.mjs) run as it is, without node, in place of the launcher. */
  executable?: string;
}

export interface DaemonStartOptions {
  nonReapingParent?: boolean;
  /** Environment of this start only, over the daemon's (e.g. a crash test's ISULATS_FAILPOINT). */
  env?: Record<string, string>;
}

export interface IsulatsDaemon {
  dir: string;
  /** `unix:///tmp/ist-d-XXXXXX/d.sock` */
  endpoint: string;
  socket: string;
  root: string;
  state: string;
  pidfile: string;
  configPath: string;
  logPath: string;
  /** Holds the daemon's bridge conflist. */
  cniConfDir: string;
  network: CniNetwork;
  /** PID of the running daemon process (changes on restart). */
  readonly pid: number;
  /** SIGTERM and wait until it is gone (containers keep running). */
  stopProcess(): Promise<void>;
  /** SIGKILL, as a crash, and wait until it is dead (a zombie under a non-reaping parent counts). */
  kill(): Promise<void>;
  /**
   * Starts the daemon again on the same dirs and waits until it answers. `nonReapingParent`: its
   * parent is a `sleep` that never waits for it, so once killed it stays a zombie (as under a PID 1
   * that reaps slowly) until `reapZombie()` or cleanup ends that parent.
   */
  start(opts?: DaemonStartOptions): Promise<void>;
  /** Ends the non-reaping parent of the last start, if any: its zombie goes to a reaper. */
  reapZombie(): void;
  /** Removes everything: pods, daemon, conmons, container processes, cgroups, mounts, network, dir. */
  cleanup(): Promise<void>;
}

export async function startIsulatsDaemon(opts: IsulatsDaemonOptions = {}): Promise<IsulatsDaemon> {
  const dir = await makeTempDir('ist-d-');
  // Traversable as a node's /run is: runc reaches a user-namespaced pod's rootfs as the pod's root.
  await chmod(dir, 0o711);
  const paths = {
    socket: join(dir, 'd.sock'),
    root: join(dir, 'root'),
    state: join(dir, 'state'),
    pidfile: join(dir, 'd.pid'),
    configPath: join(dir, 'daemon.json'),
    logPath: join(dir, 'daemon.log'),
    cniConfDir: join(dir, 'net.d'),
    leaseDir: join(dir, 'cni-leases'),
  };
  await mkdir(paths.cniConfDir);
  await mkdir(paths.leaseDir);
  const network = await writeBridgeConflist(paths.cniConfDir, paths.leaseDir);
  const config: Record<string, unknown> = {
    graph: paths.root,
    state: paths.state,
    hosts: [`unix://${paths.socket}`],
    pidfile: paths.pidfile,
    'cni-conf-dir': paths.cniConfDir,
    'cni-bin-dir': CNI_BIN_DIR,
    'websocket-server-listening-port': await freePort(),
    'log-level': opts.logLevel ?? 'info',
    ...(opts.podSandboxImage ? { 'pod-sandbox-image': opts.podSandboxImage } : {}),
    ...opts.extraConfig,
  };
  await writeFile(paths.configPath, `${JSON.stringify(config, null, 2)}\n`);

  let pid = 0;
  let parentPid = 0;
  const endpoint = `unix://${paths.socket}`;
  const launcher = opts.launcher ?? (process.env.ISULATS_E2E_DAEMON === 'source' ? 'source' : 'bin');
  const reapZombie = (): void => {
    if (parentPid) signalPid(parentPid, 'SIGKILL');
    parentPid = 0;
  };
  // Another build's daemon (binPath) loads that build's addon: the bindings' arguments change between builds.
  const nativeAddon = opts.binPath ? join(dirname(dirname(opts.binPath)), 'build/Release/isulats.node') : process.env.ISULATS_NATIVE ?? join(REPO_ROOT, 'build/Release/isulats.node');
  const start = async (startOpts: DaemonStartOptions = {}): Promise<void> => {
    const argv = launcher === 'source'
      ? [await sourceBundle(), '--config-file', paths.configPath]
      : [opts.binPath ?? join(REPO_ROOT, 'bin/isulats'), 'daemon', '--config-file', paths.configPath];
    const command = opts.executable ? [opts.executable, 'daemon', '--config-file', paths.configPath] : [process.execPath, ...(opts.nodeArgs ?? []), ...argv];
    const childPidFile = join(dir, 'd.child.pid');
    await rm(childPidFile, { force: true });
    const logFd = openSync(paths.logPath, 'a');
    const child = startOpts.nonReapingParent
      ? spawn('sh', ['-c', '"$@" & echo $! > "$IST_CHILD_PID"; exec sleep 3600', 'sh', ...command], {
        cwd: REPO_ROOT,
        stdio: ['ignore', logFd, logFd],
        env: { ...process.env, ISULATS_NATIVE: nativeAddon, ...opts.env, ...startOpts.env, IST_CHILD_PID: childPidFile },
      })
      : spawn(command[0]!, command.slice(1), {
        cwd: REPO_ROOT,
        stdio: ['ignore', logFd, logFd],
        env: { ...process.env, ISULATS_NATIVE: nativeAddon, ...opts.env, ...startOpts.env },
      });
    closeSync(logFd);
    child.unref();
    if (child.pid === undefined) throw new Error('isulats daemon did not start');
    if (startOpts.nonReapingParent) {
      parentPid = child.pid;
      await waitFor(async () => existsSync(childPidFile) && (await readFile(childPidFile, 'utf8')).endsWith('\n'), { timeoutMs: 10_000, intervalMs: 20, what: 'daemon pid from its non-reaping parent' });
      pid = Number.parseInt(await readFile(childPidFile, 'utf8'), 10);
    } else {
      pid = child.pid;
    }
    await writeOwner<DaemonOwnerData>(dir, { daemonPid: pid, configPath: paths.configPath, network });
    await waitReady(endpoint, paths.socket, pid, paths.logPath);
  };
  const stopProcess = async (): Promise<void> => {
    if (pid && (await commandLineMentions(pid, paths.configPath))) await stopPid(pid, 20_000);
  };
  const kill = async (): Promise<void> => {
    if (!pid || !(await commandLineMentions(pid, paths.configPath))) return;
    signalPid(pid, 'SIGKILL');
    await waitFor(async () => !(await pidAlive(pid)), { timeoutMs: 10_000, intervalMs: 20, what: `daemon ${pid} to die` });
  };
  const cleanup = async (): Promise<void> => {
    reapZombie();
    await teardownDaemonDir(dir, { daemonPid: pid, configPath: paths.configPath, network });
    if (launcher === 'source') await releaseSourceBundle();
  };

  if (launcher === 'source') bundleUsers++;
  try {
    await start();
  } catch (error) {
    const log = await readFile(paths.logPath, 'utf8').catch(() => '');
    await cleanup();
    throw new Error(`${(error as Error).message}\ndaemon log tail:\n${log.split('\n').slice(-20).join('\n')}`);
  }
  return {
    dir, endpoint, network, ...paths,
    get pid() { return pid; },
    stopProcess, kill, start, reapZombie, cleanup,
  };
}

/** What a later run needs to tear down a daemon dir whose owner died (see stale-rigs.ts). */
export interface DaemonOwnerData {
  daemonPid: number;
  configPath: string;
  network: CniNetwork;
}

/** Pods removed through CRI while the daemon answers, the daemon stopped, then everything of the dir reaped. */
export async function teardownDaemonDir(dir: string, data: DaemonOwnerData): Promise<void> {
  if (data.daemonPid && (await commandLineMentions(data.daemonPid, data.configPath))) {
    await removeAllPods(`unix://${join(dir, 'd.sock')}`, 30_000).catch(() => undefined);
    await stopPid(data.daemonPid, 20_000);
  }
  await reapLeftovers(dir, data.network);
}

/** The owner record of a daemon dir, if it has one. */
export const readDaemonOwner = (dir: string) => readOwner<DaemonOwnerData>(dir);

let bundled: Promise<string> | undefined;
let bundleUsers = 0;

/** The last daemon of this process using the source bundle removes it. */
async function releaseSourceBundle(): Promise<void> {
  bundleUsers = Math.max(0, bundleUsers - 1);
  if (bundleUsers > 0 || !bundled) return;
  const out = await bundled.catch(() => undefined);
  bundled = undefined;
  if (out) await rm(out, { force: true });
}

/**
 * Bundles a runnable `isulats daemon` from src/ into `out` (under the repo, so packages resolve from
 * its node_modules): the command spec driven like src/cli/main.ts does, without the CLI registry.
 */
export async function bundleDaemonFromSource(out: string): Promise<void> {
  const entry = out.replace(/\.mjs$/, '') + '-entry.ts';
  await mkdir(dirname(out), { recursive: true });
  await writeFile(entry, [
    `import spec from ${JSON.stringify(join(REPO_ROOT, 'src/commands/daemon.ts'))};`,
    `import { parseCommandArgv } from ${JSON.stringify(join(REPO_ROOT, 'src/cli/main.ts'))};`,
    `import { makeContext } from ${JSON.stringify(join(REPO_ROOT, 'src/cli/context.ts'))};`,
    'const parsed = await parseCommandArgv(spec, process.argv.slice(2));',
    'const code = await spec.run(makeContext("daemon", parsed)).catch((e) => { process.stderr.write(`isulats: ${e.message}\\n`); return 1; });',
    'process.exit(code ?? 0);',
  ].join('\n'));
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: out, logLevel: 'error' });
  } finally {
    await rm(entry, { force: true });
  }
}

/** The daemon command bundled from src/ into .tmp/, once while any daemon of this process uses it. */
function sourceBundle(): Promise<string> {
  bundled ??= (async () => {
    const out = join(REPO_ROOT, '.tmp', `ist-e2e-daemon-${process.pid}.mjs`);
    await bundleDaemonFromSource(out);
    return out;
  })();
  return bundled;
}

async function waitReady(endpoint: string, socket: string, pid: number, logPath: string): Promise<void> {
  await waitFor(async () => {
    if (!(await pidAlive(pid))) throw new GiveUp(`isulats daemon exited; see ${logPath}`);
    return existsSync(socket);
  }, { timeoutMs: 60_000, intervalMs: 100, what: `daemon socket ${socket}` });
  const client = openCriClient(endpoint);
  try {
    await waitFor(async () => {
      const res = await client.runtime('Version', {}, 2_000);
      return Boolean(res.runtimeName);
    }, { timeoutMs: 30_000, intervalMs: 200, what: `daemon CRI at ${endpoint}` });
  } finally {
    client.close();
  }
}


/** Every 64-hex name under our dir (a few levels deep): the sandbox and container IDs it recorded. */
export async function knownIds(dir: string): Promise<Set<string>> {
  const ids = new Set<string>();
  const walk = async (path: string, depth: number): Promise<void> => {
    if (depth > 5) return;
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (/^[0-9a-f]{64}$/.test(entry.name)) ids.add(entry.name);
      // Image and layer stores hold digests, not task IDs; skip them (and mounted rootfs trees).
      else if (entry.isDirectory() && !/^(rootfs|merged|diff|layers|blobs|images|content|snapshots?)$/.test(entry.name)) {
        await walk(join(path, entry.name), depth + 1);
      }
    }
  };
  await walk(join(dir, 'state'), 0);
  await walk(join(dir, 'root'), 0);
  return ids;
}

/** conmon processes whose command line names our dir (how we find our monitors, never by name alone). */
export function ourMonitors(processes: ProcessInfo[], dir: string): ProcessInfo[] {
  return processes.filter((p) => (p.argv[0] ?? '').endsWith('conmon') && p.argv.some((a) => a.includes(dir)));
}

async function reapLeftovers(dir: string, network: CniNetwork): Promise<void> {
  const ids = await knownIds(dir);
  const processes = await listProcesses();
  const monitors = ourMonitors(processes, dir);
  const tasks = processes.filter((p) => !monitors.includes(p) &&
    (inCgroupOf(p, ids) || p.argv.some((a) => a.includes(dir)) || isUnder(p.root, dir) || isUnder(p.cwd, dir)));
  await killPids(tasks.map((p) => p.pid));
  await killPids(monitors.map((p) => p.pid));
  await removeRuntimeLeftovers(dir, network, ids);
}
