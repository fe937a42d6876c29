// Container verbs of the CLI against the rig's real containerd: create (with
// pull), start, ps, inspect, exec (sync and streaming), logs, stop, rm, and
// bad input. The one pod made here is removed at the end with its containers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { REPO_ROOT } from '../rig/cli.js';
import { signalPid } from '../rig/proc.js';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const NS = `cli-ctrs-${process.pid}`;
let dir: string;
let endpoint: string;
let busybox: string;
let podId = '';
let podConfigPath: string;

function cli(args: string[], input?: string): Promise<CliResult> {
  return runCli(['-r', endpoint, '--timeout', '20s', ...args], { input, timeoutMs: 90_000 });
}

async function createContainer(name: string, command: string[], extra: string[] = [], config: Record<string, unknown> = {}): Promise<string> {
  const path = await writeContainerConfig(dir, { name, image: busybox, command, logPath: `${name}.log`, extra: config });
  const r = await cli(['create', ...extra, podId, path, podConfigPath]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const id = r.stdout.trim();
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  return id;
}

beforeAll(async () => {
  const env = rigEnv();
  endpoint = env.ISULATS_TEST_CRI_ENDPOINT;
  busybox = env.ISULATS_TEST_BUSYBOX;
  dir = await makeTempDir('ist-clic-');
  podConfigPath = await writePodConfig(dir, { name: 'ctrs', namespace: NS, logDirectory: join(dir, 'logs') });
  const r = await cli(['runp', podConfigPath]);
  expect(r.code).toBe(0);
  podId = r.stdout.trim();
});

afterAll(async () => {
  if (podId) await cli(['rmp', '-f', podId]);
  if (dir) await removeTempDir(dir);
});

describe('container lifecycle', () => {
  let box: string;

  beforeAll(async () => {
    box = await createContainer('box', ['sh', '-c', 'echo out1; echo err1 >&2; echo out2; exec sleep 3600'], ['--with-pull']);
  });

  it('lists a created container only with -a, in state Created', async () => {
    expect((await cli(['ps', '-q', '--pod', podId])).stdout).toBe('');
    const all = await cli(['ps', '-a', '--pod', podId]);
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const col of ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE']) expect(lines[0]).toContain(col);
    expect(lines[1]).toContain('Created');
  });

  it('starts a container by prefix and echoes what was typed', async () => {
    const r = await cli(['start', box.slice(0, 12)]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${box.slice(0, 12)}\n`);
  });

  it('lists running containers as a crictl table', async () => {
    const r = await cli(['ps', '--pod', podId.slice(0, 10)]);
    const lines = r.stdout.trimEnd().split('\n');
    // crictl 1.34's columns, NAMESPACE last.
    const names = ['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE'];
    const starts = names.map((n) => (n === 'POD' ? lines[0].lastIndexOf(`${n} `) : lines[0].indexOf(n)));
    const cells = starts.map((s, i) => lines[1].slice(s, starts[i + 1] ?? undefined).trim());
    expect(cells[0]).toBe(box.slice(0, 13));
    // containerd 1.6 reports the image as referenced (a digest would lose "sha256:" and be cut to 13).
    expect(cells[1]).toBe(busybox);
    expect(cells.slice(2)).toEqual([expect.stringMatching(/ ago$/), 'Running', 'box', '0', podId.slice(0, 13), 'unknown', 'unknown']);
  });

  it('filters containers by name, state, image and label, and prints JSON in proto order', async () => {
    const ids = async (...args: string[]) => (await cli(['ps', '-q', '--pod', podId, ...args])).stdout.trim();
    expect(await ids('--name', 'bo')).toBe(box);
    expect(await ids('--name', '^nothing')).toBe('');
    expect(await ids('--state', 'running')).toBe(box);
    expect(await ids('--state', 'exited')).toBe('');
    expect(await ids('--image', busybox)).toBe(box);
    expect(await ids('--id', box.slice(0, 6))).toBe(box);
    const json = JSON.parse((await cli(['ps', '-o', 'json', '--pod', podId])).stdout);
    expect(Object.keys(json)).toEqual(['containers']);
    expect(Object.keys(json.containers[0]).slice(0, 9)).toEqual(['id', 'podSandboxId', 'metadata', 'image', 'imageRef', 'state', 'createdAt', 'labels', 'annotations']);
  });

  it('inspects a running container: JSON status with RFC 3339 times and parsed info', async () => {
    const doc = JSON.parse((await cli(['inspect', box.slice(0, 8)])).stdout);
    expect(doc.status.id).toBe(box);
    expect(doc.status.state).toBe('CONTAINER_RUNNING');
    expect(doc.status.startedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(doc.status.finishedAt).toBe('0001-01-01T00:00:00Z');
    expect(doc.info.pid).toBeGreaterThan(0);
    const t = await cli(['inspect', '-o', 'table', '-q', box]);
    expect(t.stdout).toMatch(new RegExp(`^ID: ${box}\nName: box\nState: CONTAINER_RUNNING\nCreated: .+ ago\nStarted: .+ ago\n$`));
  });

  it('runs exec --sync with crictl output and passes the exit code through', async () => {
    const ok = await cli(['exec', '-s', box, 'echo', 'hello']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('hello\n\n\n');
    const three = await cli(['exec', '-s', box, 'sh', '-c', 'echo bad >&2; exit 3']);
    expect(three.code).toBe(3);
    expect(three.stderr).toBe('bad\n');
    // Flags after the command belong to it.
    const ls = await cli(['exec', '--sync', box.slice(0, 9), 'ls', '-d', '/bin']);
    expect(ls.stdout).toBe('/bin\n\n\n');
  });

  it('streams exec with stdin piped and returns the remote exit code', async () => {
    const cat = await cli(['exec', '-i', box, 'cat'], 'piped line\n');
    expect(cat.stderr).toBe('');
    expect(cat.code).toBe(0);
    expect(cat.stdout).toBe('piped line\n');
    const split = await cli(['exec', box, 'sh', '-c', 'echo o; echo e >&2; exit 5']);
    expect(split.code).toBe(5);
    expect(split.stdout).toBe('o\n');
    expect(split.stderr).toBe('e\n');
  });

  it('runs exec -it in a terminal (under script(1)) and passes the exit code through', async () => {
    const inner = ['node', 'bin/isulats', '-r', endpoint, 'exec', '-it', box, 'sh', '-c', "'tty; exit 4'"].join(' ');
    const child = spawn('script', ['-qec', inner, '/dev/null'], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => child.pid && signalPid(child.pid, 'SIGKILL'), 60_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    clearTimeout(timer);
    expect(out).toMatch(/\/dev\/pts\/\d+/);
    expect(code).toBe(4);
  });

  it('refuses -t without -i as crictl does', async () => {
    const r = await cli(['exec', '-t', box, 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tty=true must be specified with interactive=true');
  });

  it('prints logs by stream, with --tail and --timestamps', async () => {
    const logFile = join(dir, 'logs', 'box.log');
    await waitFor(async () => (await readFile(logFile, 'utf8').catch(() => '')).includes('out2'), { timeoutMs: 10_000, what: 'box log' });
    const all = await cli(['logs', box]);
    expect(all.code).toBe(0);
    expect(all.stdout).toBe('out1\nout2\n');
    expect(all.stderr).toBe('err1\n');
    // The two pipes are recorded in no fixed order, but out2 always follows out1.
    const tail = await cli(['logs', '--tail', '1', box]);
    expect(tail.stdout + tail.stderr).toMatch(/^(out2|err1)\n$/);
    const ts = await cli(['logs', '-t', box]);
    const stamp = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}(Z|[+-]\\d\\d:\\d\\d)';
    expect(ts.stdout).toMatch(new RegExp(`^${stamp} out1\n${stamp} out2\n$`));
    expect(ts.stderr).toMatch(new RegExp(`^${stamp} err1\n$`));
    const limited = await cli(['logs', '--limit-bytes', '3', box]);
    expect(limited.stdout + limited.stderr).toHaveLength(3);
  });

  it('follows the log of a container until it exits', async () => {
    const short = await createContainer('short', ['sh', '-c', 'echo a; sleep 2; echo b']);
    expect((await cli(['start', short])).code).toBe(0);
    const r = await cli(['logs', '-f', short]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a\nb\n');
    expect((await cli(['rm', short])).code).toBe(0);
  });

  it('prints the previous attempt\'s log with --previous', async () => {
    const mk = async (attempt: number, word: string) => {
      const path = await writeContainerConfig(dir, { name: 'again', attempt, image: busybox, command: ['echo', word], logPath: `again/${attempt}.log` });
      const r = await cli(['create', podId, path, podConfigPath]);
      expect(r.code).toBe(0);
      const id = r.stdout.trim();
      expect((await cli(['start', id])).code).toBe(0);
      return id;
    };
    const first = await mk(0, 'old');
    await waitFor(async () => (await cli(['ps', '-a', '-q', '--state', 'exited', '--id', first])).stdout.trim() === first, { timeoutMs: 20_000, what: 'first attempt exited' });
    const second = await mk(1, 'new');
    await waitFor(async () => (await readFile(join(dir, 'logs', 'again', '1.log'), 'utf8').catch(() => '')).includes('new'), { timeoutMs: 20_000, what: 'second log' });
    expect((await cli(['logs', second])).stdout).toBe('new\n');
    expect((await cli(['logs', '-p', second])).stdout).toBe('old\n');
    const none = await cli(['logs', '--previous', first]);
    expect(none.code).toBe(1);
    expect(none.stderr).toBe('isulats: Previous terminated container again not found\n');
    expect((await cli(['rm', first, second])).code).toBe(0);
  });

  it('refuses to remove a running container without -f, stops it, then removes it', async () => {
    const refused = await cli(['rm', box]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`isulats: container "${box}" is running, please stop it first\n`);
    const stop = await cli(['stop', '-t', '0', box.slice(0, 7)]);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`${box.slice(0, 7)}\n`);
    const doc = JSON.parse((await cli(['inspect', box])).stdout);
    expect(doc.status.state).toBe('CONTAINER_EXITED');
    expect(doc.status.finishedAt).not.toBe('0001-01-01T00:00:00Z');
    expect((await cli(['ps', '-a', '-q', '--state', 'exited', '--pod', podId])).stdout.trim()).toBe(box);
    const rm = await cli(['rm', box]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toBe(`${box}\n`);
    expect((await cli(['ps', '-a', '-q', '--pod', podId])).stdout).toBe('');
  });
});

describe('attach and port-forward', () => {
  it('attaches to a container with stdin piped', async () => {
    const id = await createContainer('reader', ['sh', '-c', 'read l; echo got $l'], [], { stdin: true, stdin_once: true });
    expect((await cli(['start', id])).code).toBe(0);
    const r = await cli(['attach', '-i', id], 'x\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('got x\n');
    expect((await cli(['rm', '-f', id])).code).toBe(0);
  });

  it('forwards a local port to the pod until interrupted', async () => {
    const id = await createContainer('web', ['sh', '-c', 'echo hello > /tmp/index.html; exec httpd -f -p 8080 -h /tmp']);
    expect((await cli(['start', id])).code).toBe(0);
    const child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, 'port-forward', podId.slice(0, 12), ':8080'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const port = await waitFor(async () => /^Forwarding from 127\.0\.0\.1:(\d+) -> 8080$/m.exec(out)?.[1], { timeoutMs: 20_000, what: `forwarding line (stderr: ${err})` });
      const body = await waitFor(
        async () => {
          const res = await fetch(`http://127.0.0.1:${port}/index.html`).catch(() => undefined);
          return res?.ok ? res.text() : undefined;
        },
        { timeoutMs: 20_000, what: 'an answer through the forwarded port' },
      );
      expect(body).toBe('hello\n');
      expect(out).toContain(`Handling connection for ${port}`);
    } finally {
      if (child.pid && child.exitCode === null) signalPid(child.pid, 'SIGINT');
    }
    expect(await exited).toBe(0);
    expect((await cli(['rm', '-f', id])).code).toBe(0);
  });
});

describe('bad input', () => {
  it('refuses an ambiguous container prefix and lists the matches', async () => {
    // At most 17 IDs guarantee two that share their first hex digit.
    const ids: string[] = [];
    let shared: string | undefined;
    for (let i = 0; i < 17 && !shared; i++) {
      ids.push(await createContainer(`amb${i}`, ['true']));
      const firsts = ids.map((id) => id[0]);
      shared = firsts.find((c, j) => firsts.indexOf(c) !== j);
    }
    try {
      const r = await cli(['inspect', shared!]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/ambiguous/);
      for (const id of ids.filter((x) => x.startsWith(shared!))) expect(r.stderr).toContain(id);
    } finally {
      expect((await cli(['rm', ...ids])).code).toBe(0);
    }
  });

  it('reports unknown container IDs as not found in one line', async () => {
    for (const args of [['inspect', 'ffffffffffff1'], ['exec', '-s', 'ffffffffffff1', 'true'], ['logs', 'ffffffffffff1'], ['start', 'ffffffffffff1']]) {
      const r = await cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/not found/);
    }
  });

  it('refuses a malformed container config in one line', async () => {
    const p = join(dir, 'bad-ctr.yaml');
    await writeFile(p, 'metadata: [unclosed\n');
    const r = await cli(['create', podId, p, podConfigPath]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^isulats: load container config file: .*bad-ctr\.yaml: .+\n$/);
  });
});
