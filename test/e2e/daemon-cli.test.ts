// The CLI in remote mode against `isulats daemon` run as a process on the embedded engine (temp
// root, state, socket, pid file, daemon.json with its own CNI conf dir): every verb of a pod's life,
// bad input, and a daemon restart with a pod running. Leaves no process, mount, netns or lease.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import { openCriClient } from '../rig/cri-client.js';
import { findCgroupDirs, linkExists, listProcesses, mountsUnder } from '../rig/host-cleanup.js';
import { pidAlive } from '../rig/proc.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { knownIds, ourMonitors, startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';

const NS = `dcli-${process.pid}`;
let daemon: IsulatsDaemon;
let dir: string;
let busybox: string;

function cli(args: string[]): Promise<CliResult> {
  return runCli(['-r', daemon.endpoint, '--timeout', '60s', ...args], { timeoutMs: 120_000 });
}

async function ok(args: string[]): Promise<string> {
  const r = await cli(args);
  expect(r.stderr, `isulats ${args.join(' ')}`).toBe('');
  expect(r.code, `isulats ${args.join(' ')}`).toBe(0);
  return r.stdout;
}

/** Exit 1 and exactly one line on stderr, matching `pattern`. */
async function failsInOneLine(args: string[], pattern: RegExp): Promise<void> {
  const r = await cli(args);
  expect(r.code, `isulats ${args.join(' ')}`).toBe(1);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}

beforeAll(async () => {
  const env = rigEnv();
  busybox = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-dcli-');
  daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE });
});

afterAll(async () => {
  await daemon?.cleanup();
  if (dir) await removeTempDir(dir);
});

describe('system and images', () => {
  it('reports the daemon as runtime isulats', async () => {
    const out = await ok(['version']);
    expect(out).toMatch(/^Version:  \S+\nRuntimeName:  isulats\nRuntimeVersion:  \S+\nRuntimeApiVersion:  v1\S*\n$/);
  });

  it('prints ready runtime and network conditions in info', async () => {
    const doc = JSON.parse(await ok(['info']));
    const conditions: Array<{ type: string; status: boolean }> = doc.status.conditions;
    expect(conditions.find((c) => c.type === 'RuntimeReady')?.status).toBe(true);
    expect(conditions.find((c) => c.type === 'NetworkReady')?.status).toBe(true);
  });

  it('pulls busybox from the rig registry and lists it', async () => {
    expect(await ok(['pull', busybox])).toMatch(/^Image is up to date for sha256:[0-9a-f]{64}\n$/);
    const [repo, tag] = [busybox.slice(0, busybox.lastIndexOf(':')), busybox.slice(busybox.lastIndexOf(':') + 1)];
    const table = (await ok(['images'])).trimEnd().split('\n');
    expect(table[0]).toMatch(/^IMAGE\s+TAG\s+IMAGE ID\s+SIZE$/);
    expect(table.some((l) => l.split(/\s+/)[0] === repo && l.split(/\s+/)[1] === tag)).toBe(true);
    const json = JSON.parse(await ok(['images', '-o', 'json']));
    expect(json.images.some((i: { repoTags: string[] }) => i.repoTags.includes(busybox))).toBe(true);
  });

  it('pulls the pause image the daemon is configured with (it does not pull it by itself)', async () => {
    expect(await ok(['pull', rigEnv().ISULATS_TEST_PAUSE])).toMatch(/^Image is up to date for sha256:[0-9a-f]{64}\n$/);
  });

  it('prints the image filesystem usage', async () => {
    const doc = JSON.parse(await ok(['imagefsinfo']));
    const fs = doc.status.imageFilesystems[0];
    expect(fs.usedBytes.value).toMatch(/^\d+$/);
    expect(Number(fs.usedBytes.value)).toBeGreaterThan(0);
  });
});

describe('a pod and a container through the daemon', () => {
  let podId = '';
  let podConfig = '';
  let ctrId = '';

  it('runs a pod on the daemon\'s own CNI network', async () => {
    podConfig = await writePodConfig(dir, { name: 'web', namespace: NS, labels: { tier: 'front' }, logDirectory: join(dir, 'logs') });
    podId = (await ok(['runp', podConfig])).trim();
    expect(podId).toMatch(/^[0-9a-f]{64}$/);
    const doc = JSON.parse(await ok(['inspectp', podId.slice(0, 12)]));
    expect(doc.status.id).toBe(podId);
    expect(doc.status.state).toBe('SANDBOX_READY');
    const subnetPrefix = daemon.network.subnet.replace(/0\/24$/, '');
    expect(doc.status.network.ip.startsWith(subnetPrefix)).toBe(true);
  });

  it('lists the pod as a table, as JSON, with -q and through filters', async () => {
    const table = (await ok(['pods', '--namespace', NS])).trimEnd().split('\n');
    expect(table[0]).toMatch(/^POD ID\s+CREATED\s+STATE\s+NAME\s+NAMESPACE\s+ATTEMPT\s+RUNTIME$/);
    expect(table).toHaveLength(2);
    expect(table[1]).toMatch(new RegExp(`^${podId.slice(0, 13)}\\s+.+ ago\\s+Ready\\s+web\\s+${NS}\\s+0\\s+\\S+$`));
    const json = JSON.parse(await ok(['pods', '-o', 'json', '--namespace', NS]));
    expect(json.items.map((p: { id: string }) => p.id)).toEqual([podId]);
    expect(json.items[0].labels.tier).toBe('front');
    const ids = async (...args: string[]) => (await ok(['pods', '-q', ...args])).split('\n').filter(Boolean);
    expect(await ids('--namespace', NS)).toEqual([podId]);
    expect(await ids('--name', '^we', '--state', 'ready', '--label', 'tier=front')).toEqual([podId]);
    expect(await ids('--id', podId.slice(0, 8))).toEqual([podId]);
    expect(await ids('--label', 'tier=back')).toEqual([]);
    expect(await ids('--state', 'notready')).toEqual([]);
  });

  it('creates and starts a container, and lists and inspects it', async () => {
    const ctrConfig = await writeContainerConfig(dir, {
      name: 'box', image: busybox, logPath: 'box.log', labels: { role: 'box' },
      command: ['sh', '-c', 'echo hello-out; echo hello-err >&2; exec sleep 3600'],
    });
    ctrId = (await ok(['create', podId, ctrConfig, podConfig])).trim();
    expect(ctrId).toMatch(/^[0-9a-f]{64}$/);
    expect(await ok(['ps', '-q', '--pod', podId])).toBe('');
    expect(await ok(['ps', '-aq', '--pod', podId])).toBe(`${ctrId}\n`);
    expect(await ok(['start', ctrId.slice(0, 12)])).toBe(`${ctrId.slice(0, 12)}\n`);
    const table = (await ok(['ps', '--pod', podId])).trimEnd().split('\n');
    expect(table).toHaveLength(2);
    // crictl 1.34's columns: ... POD ID, POD, NAMESPACE.
    expect(table[1]).toMatch(new RegExp(`^${ctrId.slice(0, 13)}\\s+.+Running\\s+box\\s+0\\s+${podId.slice(0, 13)}\\s+\\S+\\s+\\S+$`));
    const json = JSON.parse(await ok(['ps', '-o', 'json', '--label', 'role=box']));
    expect(json.containers.map((c: { id: string }) => c.id)).toEqual([ctrId]);
    const doc = JSON.parse(await ok(['inspect', ctrId]));
    expect(doc.status.id).toBe(ctrId);
    expect(doc.status.state).toBe('CONTAINER_RUNNING');
    expect(doc.status.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('runs exec --sync and passes the exit code and stderr through', async () => {
    expect(await ok(['exec', '-s', ctrId, 'echo', 'hi'])).toMatch(/^hi\n/);
    const three = await cli(['exec', '-s', ctrId, 'sh', '-c', 'echo bad >&2; exit 3']);
    expect(three.code).toBe(3);
    expect(three.stderr).toBe('bad\n');
  });

  it('prints the container log', async () => {
    await waitFor(async () => (await cli(['logs', ctrId])).stderr.includes('hello-err'), { timeoutMs: 10_000, what: 'log lines' });
    const r = await cli(['logs', ctrId]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('hello-out\n');
    expect(r.stderr).toBe('hello-err\n');
  });

  it('prints container and pod stats', async () => {
    const stats = JSON.parse(await ok(['stats', '-o', 'json', ctrId.slice(0, 10)]));
    expect(stats.stats).toHaveLength(1);
    expect(stats.stats[0].attributes.id).toBe(ctrId);
    expect(stats.stats[0].memory.workingSetBytes.value).toMatch(/^\d+$/);
    const table = (await ok(['stats', '--id', ctrId])).trimEnd().split('\n');
    expect(table[0]).toMatch(/^CONTAINER\s+NAME\s+CPU %\s+MEM\s+DISK\s+INODES\s+SWAP$/);
    const podStats = JSON.parse(await ok(['statsp', '-o', 'json', podId]));
    expect(podStats.stats[0].attributes.id).toBe(podId);
  });

  it('updates the memory limit of the running container in its cgroup', async () => {
    expect(await ok(['update', '--memory', '64m', ctrId])).toBe(`${ctrId}\n`);
    const limits = (await findCgroupDirs(new Set([ctrId])))
      .flatMap((d) => ['memory.limit_in_bytes', 'memory.max'].map((f) => join(d, f)))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f, 'utf8').trim());
    expect(limits).toContain(String(64 * 1024 * 1024));
  });

  it('stops and removes the container, then the pod', async () => {
    expect(await ok(['stop', ctrId])).toBe(`${ctrId}\n`);
    expect(JSON.parse(await ok(['inspect', ctrId])).status.state).toBe('CONTAINER_EXITED');
    expect(await ok(['rm', ctrId])).toBe(`${ctrId}\n`);
    expect(await ok(['ps', '-aq', '--pod', podId])).toBe('');
    expect(await ok(['stopp', podId])).toBe(`Stopped sandbox ${podId}\n`);
    expect(JSON.parse(await ok(['inspectp', podId])).status.state).toBe('SANDBOX_NOTREADY');
    expect(await ok(['rmp', podId])).toBe(`Removed sandbox ${podId}\n`);
    expect(await ok(['pods', '-q', '--namespace', NS])).toBe('');
  });
});

describe('bad input', () => {
  it('answers unknown IDs with exit 1 and one line', async () => {
    await failsInOneLine(['inspect', 'ffffffffffff0'], /not found/i);
    await failsInOneLine(['inspectp', 'ffffffffffff0'], /not found/i);
    // stop of an unknown ID is idempotent (exit 0, as crictl against containerd 1.7): cli-operator's.
    await failsInOneLine(['rmp', 'ffffffffffff0'], /not found/i);
  });

  it('refuses an empty ID in one line', async () => {
    await failsInOneLine(['stopp', ''], /ID cannot be empty/);
    await failsInOneLine(['inspect', ''], /ID cannot be empty/);
  });

  it('answers empty IDs with InvalidArgument from the daemon itself', async () => {
    const cri = openCriClient(daemon.endpoint);
    try {
      for (const [method, request] of [
        ['StopPodSandbox', { podSandboxId: '' }],
        ['ContainerStatus', { containerId: '' }],
        ['StartContainer', { containerId: '' }],
      ] as const) {
        const error = await cri.runtime(method, request, 10_000).then(() => undefined, (e: { code?: number }) => e);
        expect(error?.code, method).toBe(3); // INVALID_ARGUMENT
      }
    } finally {
      cri.close();
    }
  });

  it('surfaces the daemon\'s refusal of a pod config without metadata in one line', async () => {
    const path = join(dir, 'no-metadata.json');
    await writeFile(path, '{}\n');
    await failsInOneLine(['runp', path], /metadata\.name must not be empty/);
    expect(await ok(['pods', '-q'])).toBe('');
  });
});

describe('daemon restart with a pod running', () => {
  it('keeps the pod and its container running across SIGTERM and a new start, then stops them', async () => {
    const podConfig = await writePodConfig(dir, { name: 'survivor', namespace: NS });
    const podId = (await ok(['runp', podConfig])).trim();
    const ctrConfig = await writeContainerConfig(dir, { name: 'sleeper', image: busybox, command: ['sleep', '3600'] });
    const ctrId = (await ok(['create', podId, ctrConfig, podConfig])).trim();
    await ok(['start', ctrId]);
    const before = JSON.parse(await ok(['inspect', ctrId]));
    const oldPid = daemon.pid;

    await daemon.stopProcess();
    expect(await pidAlive(oldPid)).toBe(false);
    // Containers outlive the daemon: their monitors are still there.
    expect(ourMonitors(await listProcesses(), daemon.dir).length).toBeGreaterThan(0);
    await daemon.start();
    expect(daemon.pid).not.toBe(oldPid);

    expect(await ok(['pods', '-q', '--namespace', NS, '--state', 'ready'])).toBe(`${podId}\n`);
    expect(await ok(['ps', '-q', '--pod', podId, '--state', 'running'])).toBe(`${ctrId}\n`);
    const after = JSON.parse(await ok(['inspect', ctrId]));
    expect(after.status.state).toBe('CONTAINER_RUNNING');
    expect(after.status.startedAt).toBe(before.status.startedAt);
    expect(await ok(['exec', '-s', ctrId, 'echo', 'still-here'])).toMatch(/^still-here\n/);

    expect(await ok(['stop', ctrId])).toBe(`${ctrId}\n`);
    expect(JSON.parse(await ok(['inspect', ctrId])).status.state).toBe('CONTAINER_EXITED');
    await ok(['stopp', podId]);
    await ok(['rmp', podId]);
    expect(await ok(['pods', '-q', '--namespace', NS])).toBe('');
  });
});

describe('the end', () => {
  it('removes the pulled image', async () => {
    const id = JSON.parse(await ok(['inspecti', '-o', 'json', busybox])).status.id as string;
    await ok(['rmi', busybox]);
    expect(await ok(['images', '-q'])).not.toContain(id);
  });

  it('leaves no process, mount, netns, bridge or lease of ours after cleanup', async () => {
    const ids = await knownIds(daemon.dir);
    await daemon.cleanup();
    const processes = await listProcesses();
    expect(processes.filter((p) => p.argv.some((a) => a.includes(daemon.dir))).map((p) => p.argv.join(' '))).toEqual([]);
    expect(await mountsUnder(daemon.dir)).toEqual([]);
    expect(await findCgroupDirs(ids)).toEqual([]);
    expect(await linkExists(daemon.network.bridge)).toBe(false);
    expect(existsSync(daemon.dir)).toBe(false);
    expect(existsSync(join('/var/lib/cni/networks', daemon.network.name))).toBe(false);
  });
});
