// The CLI as an operator and a script use it every day, against the rig's remote peer
// (containerd, or `isulats daemon` with ISULATS_TEST_PEER=isulats): `run -e` values arrive
// intact, names resolve, output verbs piped into a reader that goes away exit 0 quietly,
// idempotent verbs exit 0 for what is not there, and errors name their cause in one line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runCli, type CliResult } from '../rig/cli.js';
import { startIsulatsDaemon } from '../rig/isulats-daemon.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { signalPid } from '../rig/proc.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';

const TAG = `op${process.pid}`;
const WEB = `web-${TAG}`;
const ENVS = `envs-${TAG}`;
const BIG = `big-${TAG}`;
const NS = `cli-op-${process.pid}`;
let dir: string;
let endpoint: string;
let busybox: string;
let registry: string;
let peer: string;
let webId = '';
let bigId = '';

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return runCli(['-r', endpoint, '--timeout', '20s', ...args], { timeoutMs: 90_000, env });
}

async function ok(args: string[]): Promise<string> {
  const r = await cli(args);
  if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** `isulats ARGS | READER` in bash: isulats' own exit code (PIPESTATUS) and its stderr. */
async function piped(args: string[], reader: string): Promise<{ code: number; stderr: string }> {
  const err = join(dir, 'pipe.err');
  const code = join(dir, 'pipe.code');
  const script = `node bin/isulats -r "$EP" --timeout 20s "$@" 2>"$ERR" | ${reader}; echo "\${PIPESTATUS[0]}" >"$CODE"`;
  await new Promise<void>((resolve, reject) => {
    execFile('bash', ['-c', script, 'bash', ...args], { cwd: REPO_ROOT, env: { ...process.env, EP: endpoint, ERR: err, CODE: code }, timeout: 90_000 }, (e) => (e ? reject(e) : resolve()));
  });
  return { code: Number((await readFile(code, 'utf8')).trim()), stderr: await readFile(err, 'utf8') };
}

beforeAll(async () => {
  const env = rigEnv();
  endpoint = env.ISULATS_TEST_CRI_ENDPOINT;
  busybox = env.ISULATS_TEST_BUSYBOX;
  registry = env.ISULATS_TEST_REGISTRY;
  peer = env.ISULATS_TEST_CRI_PEER;
  dir = await makeTempDir('ist-cliop-');
  // Made without the features under test, so that each test fails on its own: a named
  // container, and one whose log is far larger than a pipe's buffer (a write after the
  // reader left must meet EPIPE).
  webId = (await ok(['run', '-d', '--name', WEB, busybox, 'sh', '-c', 'echo hello-from-web; exec sleep 3600'])).trim();
  bigId = (await ok(['run', '-d', '--name', BIG, busybox, 'sh', '-c', 'seq 1 200000; exec sleep 3600'])).trim();
  await waitFor(async () => (await ok(['logs', '--tail', '1', bigId])).trim() === '200000', { timeoutMs: 60_000, what: 'the big log' });
}, 180_000);

afterAll(async () => {
  // Every pod this file made: the isula-form ones by name, the config-file one by namespace.
  const pods = JSON.parse((await cli(['pods', '-o', 'json'])).stdout || '{"items":[]}') as { items: Array<{ id: string; metadata: { name: string; namespace: string; uid: string } }> };
  for (const p of pods.items.filter((x) => x.metadata.name.includes(TAG) || x.metadata.namespace === NS)) {
    await cli(['rmp', '-f', p.id]);
    await rm(`/var/log/pods/${p.metadata.namespace}_${p.metadata.name}_${p.metadata.uid}`, { recursive: true, force: true });
  }
  if (dir) await removeTempDir(dir);
});

describe('run -e through the remote path', () => {
  it('gives the container each value as typed: plain, with "=", non-ASCII, and several flags', async () => {
    const r = await cli(['run', '-d', '--name', ENVS, '-e', 'FOO=bar', '-e', 'A=a=b', '-e', 'HELLO=hello', '-e', 'N=12345', '-e', 'U=héllo wörld',
      busybox, 'sleep', '3600']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const env = (await ok(['exec', '-s', id, 'env'])).split('\n');
    expect(env).toEqual(expect.arrayContaining(['FOO=bar', 'A=a=b', 'HELLO=hello', 'N=12345', 'U=héllo wörld']));
  });

  it('gives a crictl config file\'s envs as typed too', async () => {
    const podFile = await writePodConfig(dir, { name: `cfg-${TAG}`, namespace: NS, logDirectory: join(dir, 'logs') });
    const ctrFile = await writeContainerConfig(dir, {
      name: 'envs', image: busybox, command: ['sleep', '3600'], logPath: 'envs.log',
      extra: { envs: [{ key: 'FOO', value: 'bar' }, { key: 'A', value: 'a=b' }] },
    });
    const id = (await ok(['run', '--no-pull', ctrFile, podFile])).trim();
    const env = (await ok(['exec', '-s', id, 'env'])).split('\n');
    expect(env).toEqual(expect.arrayContaining(['FOO=bar', 'A=a=b']));
  });
});

describe('names', () => {
  it('resolves a container by its name for exec, logs, inspect and top, and a pod by its name', async () => {
    expect((await ok(['exec', '-s', WEB, 'echo', 'by-name'])).trim()).toBe('by-name');
    expect(await waitFor(async () => (await ok(['logs', WEB])).includes('hello-from-web'), { timeoutMs: 20_000, what: 'the log line' })).toBe(true);
    const doc = JSON.parse(await ok(['inspect', WEB]));
    expect(doc.status.id).toBe(webId);
    // crictl 1.34's JSON: stop signals by upstream's names (containerd 1.6 sends none: the default),
    // and keys sorted at every level.
    expect(doc.status.stopSignal).toBe(peer === 'isulats' ? 'SIGTERM' : 'RUNTIME_DEFAULT');
    expect(Object.keys(doc.status)).toEqual([...Object.keys(doc.status)].sort());
    const podId = (JSON.parse(await ok(['ps', '-o', 'json', '--id', webId])) as { containers: Array<{ podSandboxId: string }> }).containers[0]!.podSandboxId;
    expect(JSON.parse(await ok(['inspectp', WEB])).status.id).toBe(podId);
    const top = await cli(['top', WEB]);
    if (peer === 'isulats') {
      expect(top.stderr).toBe('');
      expect(top.stdout).toContain('sleep 3600');
    } else {
      // containerd has no process listing: the name resolved, so the error is about that, not the name.
      expect(top.stderr).toMatch(/not supported/);
    }
  });

  it('refuses a second run with a name in use, in one line, and makes nothing', async () => {
    const r = await cli(['run', '-d', '--name', WEB, busybox, 'sleep', '3600']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^isulats: run: the name "${WEB}" is already in use by pod [0-9a-f]{64}: .+\\n$`));
    const pods = JSON.parse(await ok(['pods', '-o', 'json', '--name', `^${WEB}$`])) as { items: unknown[] };
    expect(pods.items).toHaveLength(1);
  });
});

describe('idempotent verbs and errors in one line', () => {
  it('stops a container or a pod that is not there with exit 0, as crictl does', async () => {
    const stop = await cli(['stop', `gone${TAG}`]);
    expect(stop.stderr).toBe('');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`gone${TAG}\n`);
    const stopp = await cli(['stopp', `gone${TAG}`]);
    expect(stopp.stderr).toBe('');
    expect(stopp.code).toBe(0);
    expect(stopp.stdout).toBe(`Stopped sandbox gone${TAG}\n`);
  });

  it('reports a container rm cannot find in one line', async () => {
    const r = await cli(['rm', `gone${TAG}`]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`gone${TAG}.*not found`));
  });

  it('says an image is not present locally and that its pull failed, in one line', async () => {
    const r = await cli(['run', '-d', '--name', `miss-${TAG}`, `${registry}/isulats-absent:${TAG}`, 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(new RegExp(`image "${registry}/isulats-absent:${TAG}" is not present locally, and pulling it failed: .+`));
  });

  it('says an exec --sync --timeout ran out, not that the socket did not answer', async () => {
    const r = await cli(['exec', '-s', '--timeout', '1', webId, 'sleep', '30']);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/timed out/);
    expect(r.stderr).not.toContain('no answer from');
  });

  it('says permission denied on the socket for a user who may not open it, and doctor says how to fix that', async () => {
    // The rig's socket sits in a root-only dir: nobody's connect fails with EACCES.
    const asNobody = (args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, 'bin/isulats', '-r', endpoint, ...args],
        { cwd: REPO_ROOT, env: { ...process.env, HOME: dir }, timeout: 60_000 }, (e, stdout, stderr) => resolve({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    const socket = endpoint.replace(/^unix:\/\//, '');
    const r = await asNobody(['pods']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`isulats: permission denied on ${socket}\n`);
    const doctor = await asNobody(['doctor', '-o', 'json']);
    const endpointCheck = (JSON.parse(doctor.stdout) as { checks?: Array<{ id: string; fix?: string }> } | Array<{ id: string; fix?: string }>);
    const checks = Array.isArray(endpointCheck) ? endpointCheck : endpointCheck.checks ?? [];
    expect(checks.find((c) => c.id === 'endpoint')?.fix).toBe(`run as root, or as a user allowed to write to the socket (its group: ls -l ${socket})`);
  });

  it('shows each request and response body with -D, as crictl does', async () => {
    const r = await cli(['-D', 'pods', '--name', `^${WEB}$`]);
    expect(r.code).toBe(0);
    const req = /ListPodSandboxRequest: (\{.*\})$/m.exec(r.stderr)?.[1];
    const res = /ListPodSandboxResponse: (\{.*\})$/m.exec(r.stderr)?.[1];
    expect(req && JSON.parse(req)).toEqual(expect.any(Object));
    expect(res && JSON.parse(res).items).toEqual(expect.arrayContaining([expect.objectContaining({ metadata: expect.objectContaining({ name: WEB }) })]));
  });
});

describe('output verbs piped into a reader that goes away', () => {
  const verbs = (): string[][] => [
    ['logs', bigId], ['logs', webId], ['pods'], ['pods', '-o', 'json'], ['ps', '-a'], ['ps', '-o', 'yaml'], ['images'], ['images', '-o', 'json'],
    ['inspect', webId], ['inspecti', busybox], ['stats'], ['info'], ['version'], ['imagefsinfo'],
    // containerd 1.6 cannot read pod cgroup metrics on this host (its own error, pipe or not).
    ...(peer === 'isulats' ? [['statsp']] : []),
    ['completion', 'zsh'], ['completion', 'bash'], ['top', '-n', '1'], ['--help'], ['pods', '--help'],
    ['config', '-c', join(dir, 'crictl.yaml'), '--list'],
  ];

  it('exits 0 with nothing on stderr, for `| head -1` and for a reader gone before the first line', async () => {
    const failures: string[] = [];
    for (const args of verbs()) {
      for (const reader of ['head -1 >/dev/null', 'true']) {
        const r = await piped(args, reader);
        if (r.code !== 0 || r.stderr !== '') failures.push(`isulats ${args.join(' ')} | ${reader}: exit ${r.code}, stderr ${JSON.stringify(r.stderr.slice(0, 200))}`);
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);
});

describe('port-forward', () => {
  const hasIpv6Loopback = Object.values(networkInterfaces()).flat().some((a) => a?.address === '::1');

  it.skipIf(!hasIpv6Loopback)('listens on 127.0.0.1 and [::1] on the same port, as crictl does', async () => {
    const podId = (JSON.parse(await ok(['ps', '-o', 'json', '--id', webId])) as { containers: Array<{ podSandboxId: string }> }).containers[0]!.podSandboxId;
    const child = spawn(process.execPath, ['bin/isulats', '-r', endpoint, 'port-forward', podId, ':8080'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      const lines = await waitFor(async () => {
        const v4 = /^Forwarding from 127\.0\.0\.1:(\d+) -> 8080$/m.exec(out)?.[1];
        const v6 = /^Forwarding from \[::1\]:(\d+) -> 8080$/m.exec(out)?.[1];
        return v4 && v6 ? [v4, v6] : undefined;
      }, { timeoutMs: 20_000, what: 'both forwarding lines' });
      expect(lines[1]).toBe(lines[0]);
    } finally {
      if (child.pid && child.exitCode === null) signalPid(child.pid, 'SIGINT');
    }
    expect(await exited).toBe(0);
  });
});

describe("the README tour's ISULATS_CNI_CONF_DIR", () => {
  // The daemon is this file's own, whichever the peer: once is enough.
  it.skipIf(process.env.ISULATS_TEST_PEER === 'isulats')('is read by `isulats daemon` too, over daemon.json', async () => {
    const conf = join(dir, 'tour-net.d');
    await mkdir(conf);
    // No pod runs on it: the daemon only reads it (no bridge, no lease is made).
    const net = { cniVersion: '1.0.0', name: `tour-${TAG}`, plugins: [{ type: 'bridge', bridge: 'isttour0', ipam: { type: 'host-local', subnet: '10.254.254.0/24' } }] };
    await writeFile(join(conf, '10-tour.conflist'), JSON.stringify(net));
    const daemon = await startIsulatsDaemon({ env: { ISULATS_CNI_CONF_DIR: conf } });
    try {
      const r = await runCli(['-r', daemon.endpoint, 'info']);
      expect(r.stderr).toBe('');
      const info = JSON.parse(r.stdout) as { config: { cniConfDir: string; network: string } };
      expect(info.config.cniConfDir).toBe(conf);
      expect(info.config.network).toBe(`tour-${TAG}`);
    } finally {
      await daemon.cleanup();
    }
  });
});
