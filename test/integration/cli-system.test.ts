// System verbs of the CLI against the rig's real containerd: info, stats,
// statsp, update, events, config, completion, and bad input (an unreachable
// endpoint, a malformed config file). The pod and container under test are
// made with raw CRI calls, so this file does not depend on runp/create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { spawn } from 'node:child_process';
import { REPO_ROOT, runCli, type CliResult } from '../rig/cli.js';
import { signalPid } from '../rig/proc.js';
import { waitFor } from '../rig/wait.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let endpoint: string;
let dir: string;
let cri: RawCriClient;
let podId = '';
let ctrId = '';
// containerd 1.6 reports pod stats only for pods with a cgroup parent; ours is removed in afterAll.
const CGROUP_PARENT = `/ist-clis-${process.pid}`;

function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<CliResult> {
  return runCli(['-r', endpoint, '--timeout', '20s', ...args], { timeoutMs: opts.timeoutMs ?? 60_000, env: opts.env });
}

beforeAll(async () => {
  const env = rigEnv();
  endpoint = env.ISULATS_TEST_CRI_ENDPOINT;
  dir = await makeTempDir('ist-clis-');
  cri = openCriClient(endpoint);
  await cri.image('PullImage', { image: { image: env.ISULATS_TEST_BUSYBOX } });
  const podConfig = {
    metadata: { name: `stats-${process.pid}`, uid: `stats-uid-${process.pid}`, namespace: 'cli-system', attempt: 0 },
    logDirectory: join(dir, 'logs'),
    labels: { suite: 'cli-system' },
    linux: { cgroupParent: CGROUP_PARENT },
  };
  podId = (await cri.runtime('RunPodSandbox', { config: podConfig }, 60_000)).podSandboxId;
  const ctr = await cri.runtime('CreateContainer', {
    podSandboxId: podId,
    config: {
      metadata: { name: 'spin' },
      image: { image: env.ISULATS_TEST_BUSYBOX },
      // Burns a little CPU so the CPU % column has something to show.
      command: ['sh', '-c', 'while true; do i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done; sleep 0.2; done'],
      labels: { role: 'spinner' },
      logPath: 'spin.log',
    },
    sandboxConfig: podConfig,
  });
  ctrId = ctr.containerId;
  await cri.runtime('StartContainer', { containerId: ctrId });
});

afterAll(async () => {
  if (cri) {
    if (podId) {
      await cri.runtime('StopPodSandbox', { podSandboxId: podId }, 60_000).catch(() => undefined);
      await cri.runtime('RemovePodSandbox', { podSandboxId: podId }, 60_000).catch(() => undefined);
    }
    cri.close();
  }
  for (const controller of readdirSync('/sys/fs/cgroup')) {
    const d = join('/sys/fs/cgroup', controller, CGROUP_PARENT);
    if (existsSync(d)) rmdirSync(d);
  }
  if (dir) await removeTempDir(dir);
});

describe('info', () => {
  it('prints the runtime status with its verbose info parsed as JSON', async () => {
    const r = await cli(['info']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual([...Object.keys(doc)].sort()); // crictl 1.34: Go maps, keys sorted
    expect(Object.keys(doc)).toContain('status');
    const types = doc.status.conditions.map((c: { type: string }) => c.type);
    expect(types).toEqual(expect.arrayContaining(['RuntimeReady', 'NetworkReady']));
    // containerd's "config" info value is JSON and appears as an object.
    expect(typeof doc.config).toBe('object');
    expect(r.stdout).toMatch(/^\{\n {2}"\w+": /);
  });

  it('drops the info keys with -q and renders yaml and go-template', async () => {
    const q = await cli(['info', '-q']);
    expect(Object.keys(JSON.parse(q.stdout))).toEqual(['status']);
    const y = await cli(['info', '-q', '-o', 'yaml']);
    expect(y.stderr).toBe('');
    expect(y.stdout).toMatch(/^status:\n  conditions:\n  - /);
    const t = await cli(['info', '-o', 'go-template', '--template', '{{range .status.conditions}}{{.type}}={{.status}} {{end}}']);
    expect(t.stdout).toMatch(/RuntimeReady=true /);
  });
});

describe('stats and statsp', () => {
  it('lists the running container with CPU %, memory, disk and inodes', async () => {
    const r = await cli(['stats', '-s', '1']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^CONTAINER\s+NAME\s+CPU %\s+MEM\s+DISK\s+INODES\s+SWAP$/);
    const row = lines.find((l) => l.startsWith(ctrId.slice(0, 13)));
    expect(row).toBeDefined();
    const cells = row!.split(/\s+/);
    expect(cells[1]).toBe('spin');
    expect(cells[2]).toMatch(/^\d+\.\d\d$/);
    expect(cells[3]).toMatch(/^[\d.]+\w*B$/);
  });

  it('filters by ID prefix, pod and label, and prints JSON', async () => {
    const byId = await cli(['stats', '-o', 'json', ctrId.slice(0, 8)]);
    expect(byId.code).toBe(0);
    const doc = JSON.parse(byId.stdout);
    expect(doc.stats).toHaveLength(1);
    expect(doc.stats[0].attributes.id).toBe(ctrId);
    expect(doc.stats[0].cpu.usageCoreNanoSeconds.value).toMatch(/^\d+$/);
    const byPod = await cli(['stats', '-o', 'json', '--pod', podId.slice(0, 10), '--label', 'role=spinner']);
    expect(JSON.parse(byPod.stdout).stats.map((s: { attributes: { id: string } }) => s.attributes.id)).toEqual([ctrId]);
    const badLabel = await cli(['stats', '--label', 'role']);
    expect(badLabel.code).toBe(1);
    expect(badLabel.stderr).toBe('isulats: incorrectly specified label: role\n');
  });

  it('lists pod stats', async () => {
    const r = await cli(['statsp', '-o', 'json', podId]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.stats[0].attributes.id).toBe(podId);
    const t = await cli(['statsp', '-s', '1', '--id', podId.slice(0, 12)]);
    expect(t.code).toBe(0);
    const lines = t.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^POD\s+POD ID\s+CPU %\s+MEM$/);
    expect(lines[1]).toMatch(new RegExp(`^stats-${process.pid}\\s+${podId.slice(0, 13)}\\s+\\d+\\.\\d\\d\\s+[\\d.]+\\w*B$`));
  });

  it('fails with one line for an unknown container', async () => {
    const r = await cli(['stats', 'ffffffffffff0']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not found/);
  });
});

describe('update', () => {
  it('changes the memory limit and CPU quota of the running container', async () => {
    const r = await cli(['update', '--memory', '64m', '--cpu-period', '100000', '--cpu-quota', '50000', ctrId.slice(0, 12)]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${ctrId.slice(0, 12)}\n`);
    const memDir = findCgroupDir('/sys/fs/cgroup/memory', ctrId);
    expect(memDir).toBeDefined();
    expect(readFileSync(join(memDir!, 'memory.limit_in_bytes'), 'utf8').trim()).toBe(String(64 * 1024 * 1024));
    const cpuDir = findCgroupDir('/sys/fs/cgroup/cpu', ctrId);
    expect(readFileSync(join(cpuDir!, 'cpu.cfs_quota_us'), 'utf8').trim()).toBe('50000');
  });

  it('rejects a bad value and an unknown container with one line', async () => {
    const bad = await cli(['update', '--memory', 'lots', ctrId]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('isulats: invalid value "lots" for flag -memory: invalid size\n');
    const unknown = await cli(['update', '--cpu-share', '512', 'ffffffffffff0']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^isulats: updating container resources for "ffffffffffff0": .*not found.*\n$/);
  });
});

/** The cgroup v1 directory of a container: a bounded search for a directory named after its ID. */
function findCgroupDir(root: string, id: string): string | undefined {
  const queue: [string, number][] = [[root, 0]];
  while (queue.length) {
    const [d, depth] = queue.shift()!;
    let entries: string[];
    try {
      entries = readdirSync(d, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    } catch {
      continue;
    }
    for (const name of entries) {
      if (name.includes(id)) return join(d, name);
      if (depth < 3) queue.push([join(d, name), depth + 1]);
    }
  }
  return undefined;
}

describe('events', () => {
  if (rigEnv().ISULATS_TEST_CRI_PEER === 'containerd') {
    it('says that containerd 1.6 does not support container events', async () => {
      const r = await cli(['events']);
      expect(r.code).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^isulats: .*not supported by this runtime/);
    });
  } else {
    it('streams container events as JSON until Ctrl-C, then exits 0', async () => {
      const child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, 'events'], { cwd: REPO_ROOT, stdio: 'pipe' });
      let out = '';
      child.stdout.on('data', (b: Buffer) => { out += b.toString(); });
      const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      try {
        // The subscription may start after the first container: retry with a fresh one (bounded).
        let created = '';
        for (let attempt = 0; attempt < 5 && !created; attempt++) {
          const id = (await cri.runtime('CreateContainer', {
            podSandboxId: podId,
            config: { metadata: { name: `ev-${attempt}` }, image: { image: rigEnv().ISULATS_TEST_BUSYBOX }, command: ['true'] },
            sandboxConfig: { metadata: { name: `stats-${process.pid}`, uid: `stats-uid-${process.pid}`, namespace: 'cli-system', attempt: 0 } },
          })).containerId as string;
          await cri.runtime('RemoveContainer', { containerId: id });
          const seen = await waitFor(async () => out.includes(id) && out.includes('CONTAINER_DELETED_EVENT'), { timeoutMs: 5_000, intervalMs: 100, what: 'event' })
            .then(() => true, () => false);
          if (seen) created = id;
        }
        expect(created).not.toBe('');
        // Each event is one JSON document, as crictl prints them.
        const docs = out.trim().split(/\n(?=\{)/).map((d) => JSON.parse(d) as { containerId: string; containerEventType: string; containersStatuses: Array<{ id: string }> });
        const mine = docs.filter((d) => d.containerId === created).map((d) => d.containerEventType);
        // Every container of the pod, as containerd sends them: the spinner rides along with ours.
        const createdEvent = docs.find((d) => d.containerId === created && d.containerEventType === 'CONTAINER_CREATED_EVENT')!;
        expect(createdEvent.containersStatuses.map((c) => c.id).sort()).toEqual([created, ctrId].sort());
        // Our created containers already have a (blocked) init process, so removing one records its
        // exit first (containerd, which starts the task only at StartContainer, skips STOPPED).
        expect(mine).toEqual(['CONTAINER_CREATED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT']);
        if (child.pid) signalPid(child.pid, 'SIGINT');
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null && child.pid) signalPid(child.pid, 'SIGKILL');
        await exited;
      }
    });
  }

  it('validates the output format first', async () => {
    const r = await cli(['events', '-o', 'table']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('isulats: don\'t support "table" format\n');
  });
});

describe('config', () => {
  it('sets and gets values in the file given by -c, in every crictl form', async () => {
    const path = join(dir, 'cfg', 'isulats.yaml');
    expect((await runCli(['-c', path, 'config', 'set', 'runtime-endpoint', 'unix:///tmp/x.sock'])).code).toBe(0);
    expect((await runCli(['-c', path, 'config', '--set', 'timeout=5,debug=true'])).code).toBe(0);
    expect((await runCli(['-c', path, 'config', 'pull-image-on-create', 'true'])).code).toBe(0);
    expect((await runCli(['-c', path, 'config', 'get', 'runtime-endpoint'])).stdout).toBe('unix:///tmp/x.sock\n');
    expect((await runCli(['-c', path, 'config', '--get', 'timeout'])).stdout).toBe('5\n');
    expect((await runCli(['config', '--get', 'debug'], { env: { CRI_CONFIG_FILE: path } })).stdout).toBe('true\n');
    const list = await runCli(['-c', path, 'config', '--list']);
    expect(list.stdout).toMatch(/^KEY\s+VALUE\n/);
    expect(list.stdout).toMatch(/pull-image-on-create\s+true\n/);
    expect(readFileSync(path, 'utf8')).toContain('runtime-endpoint: unix:///tmp/x.sock');
  });

  it('rejects unknown keys and bad values with one line', async () => {
    const path = join(dir, 'cfg2.yaml');
    const unknown = await runCli(['-c', path, 'config', '--get', 'colour']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('isulats: no configuration option named colour\n');
    const bad = await runCli(['-c', path, 'config', 'set', 'timeout', 'soon']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(existsSync(path)).toBe(false);
  });

  it('gives one clear line and exit 1 for a malformed config file', async () => {
    const path = join(dir, 'broken.yaml');
    await writeFile(path, 'runtime-endpoint: [unclosed\n');
    const r = await runCli(['-c', path, 'version']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(path);
    const c = await runCli(['-c', path, 'config', '--get', 'debug']);
    expect(c.code).toBe(1);
    expect(c.stderr).toMatch(/^isulats: load config file: config file .*broken\.yaml is not valid YAML: .+\n$/);
    expect(c.stderr).not.toMatch(/is not a function/);
  });
});

describe('completion', () => {
  it('prints a bash script naming every command (bash is the default)', async () => {
    const r = await runCli(['completion']);
    expect(r.code).toBe(0);
    for (const verb of ['images', 'pull', 'rmi', 'stats', 'statsp', 'update', 'events', 'config', 'runp', 'exec']) expect(r.stdout).toContain(verb);
    expect(r.stdout).toContain('complete -o default -F _isulats_completion isulats');
    expect((await runCli(['completion', 'bash'])).stdout).toBe(r.stdout);
  });

  it('prints zsh and fish scripts and refuses other shells', async () => {
    expect((await runCli(['completion', 'zsh'])).stdout).toContain('compdef _cli_zsh_autocomplete isulats');
    expect((await runCli(['completion', 'fish'])).stdout).toContain("complete -c isulats -n '__fish_use_subcommand' -a images");
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('isulats: only bash, zsh or fish are supported\n');
  });
});

describe('a user who is not root, without an endpoint', () => {
  const asNobody = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, 'bin/isulats', ...args],
      { cwd: REPO_ROOT, env: { ...process.env, HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => child.pid && signalPid(child.pid, 'SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() });
    });
  });

  it('refuses the daemon in one line before it touches anything, and doctor says to run as root', async () => {
    const pidfile = join(dir, 'nobody-daemon.pid');
    const daemon = await asNobody(['daemon', '--socket', join(dir, 'nobody-daemon.sock'), '--pidfile', pidfile]);
    expect(daemon).toMatchObject({ code: 1, stdout: '' });
    expect(daemon.stderr).toBe('isulats: daemon: the embedded engine needs root (it runs runc, mounts overlays and sets up networks); run it as root, as the systemd unit does\n');
    expect(existsSync(pidfile)).toBe(false);
    const doctor = await asNobody(['--embedded', 'doctor', '-o', 'json']);
    const parsed = JSON.parse(doctor.stdout) as { checks?: Array<{ id: string; fix?: string }> } | Array<{ id: string; fix?: string }>;
    const checks = Array.isArray(parsed) ? parsed : parsed.checks ?? [];
    expect(checks.find((c) => c.id === 'endpoint')?.fix).toBe('run as root (sudo isulats doctor), or point --runtime-endpoint at a CRI socket this user may write to');
  });
});

describe('unreachable endpoint', () => {
  it('fails with a clear error within the timeout', async () => {
    // Nobody listens: the connect error, naming the endpoint and its cause.
    const sock = join(dir, 'nobody.sock');
    const r = await runCli(['-r', `unix://${sock}`, '-t', '1s', 'info'], { timeoutMs: 110_000 });
    expect(r).toMatchObject({ code: 1, timedOut: false });
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(new RegExp(`^isulats: getting status of runtime: cannot connect to unix://${sock}: no such file or directory \\(is the runtime running\\?\\)$`));
    // A listener that never answers: only the deadline given with -t ends the call, and the error says so
    // (without -t honoured, the CLI would wait until runCli's timeout kills it).
    const mute = join(dir, 'mute.sock');
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(mute, resolve));
    try {
      const m = await runCli(['-r', `unix://${mute}`, '-t', '1s', 'info'], { timeoutMs: 110_000 });
      expect(m).toMatchObject({ code: 1, timedOut: false });
      expect(m.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(m.stderr).toMatch(new RegExp(`^isulats: getting status of runtime: no answer from unix://${mute} within the timeout \\(Deadline exceeded`));
    } finally {
      server.close();
    }
  }, 240_000);
});
