// Which runtime a CLI call uses when nothing names one: the first known CRI
// socket that answers (here the rig's real peer, given as a "known" socket
// through ISULATS_KNOWN_ENDPOINTS, since no test may reach /run/containerd),
// said on stderr; the embedded engine when none answers, said once for a verb
// that changes state; ISULATS_DAEMON_SOCKET as a unix:// URL; and read-only
// verbs that leave a fresh engine root and state dir uncreated, and a missing
// state dir (a reboot emptied /run) uncreated while they read the root.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let dir: string;
let peer: string;
let peerName: string;

/** No -r, no CONTAINER_RUNTIME_ENDPOINT, an empty config file, no daemon at our socket: only the probe decides. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    CONTAINER_RUNTIME_ENDPOINT: '',
    IMAGE_SERVICE_ENDPOINT: '',
    CRI_CONFIG_FILE: join(dir, 'isulats.yaml'),
    ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock'),
    // The embedded engine, where a call falls back to it, keeps its trees here.
    ISULATS_DAEMON_CONFIG: join(dir, 'daemon.json'),
    ISULATS_CNI_CONF_DIR: join(dir, 'cni'),
    ...extra,
  };
}

const cli = (args: string[], env: Record<string, string>): Promise<CliResult> => runCli(['--timeout', '20s', ...args], { env, timeoutMs: 90_000 });

beforeAll(async () => {
  const env = rigEnv();
  peer = env.ISULATS_TEST_CRI_ENDPOINT;
  peerName = env.ISULATS_TEST_CRI_PEER === 'isulats' ? 'isulats' : 'containerd';
  dir = await makeTempDir('ist-epc-');
  writeFileSync(join(dir, 'isulats.yaml'), '');
  writeFileSync(join(dir, 'daemon.json'), JSON.stringify({ graph: join(dir, 'root'), state: join(dir, 'state') }));
  // A stale socket file first: it must be passed over at once.
  writeFileSync(join(dir, 'stale.sock'), '');
});

afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

describe('endpoint choice with no endpoint named', () => {
  it('uses the first known socket that answers and says which on stderr', async () => {
    const env = baseEnv({ ISULATS_KNOWN_ENDPOINTS: `unix://${join(dir, 'stale.sock')},${peer}` });
    const v = await cli(['version'], env);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(new RegExp(`RuntimeName:\\s+${peerName}`));
    expect(v.stderr).toBe(`isulats: using runtime endpoint ${peer}, the first known CRI socket that answered; set --runtime-endpoint (or runtime-endpoint in the config file) to choose\n`);
    const pods = await cli(['pods', '-q'], env);
    expect(pods.code).toBe(0);
    expect(pods.stderr).toContain(`using runtime endpoint ${peer}`);
    // Nothing fell back to the engine: its trees were never made.
    expect(existsSync(join(dir, 'root'))).toBe(false);
  });

  it('honours ISULATS_DAEMON_SOCKET given as a unix:// URL, ahead of the other known sockets', async () => {
    const r = await cli(['version'], baseEnv({ ISULATS_DAEMON_SOCKET: peer, ISULATS_KNOWN_ENDPOINTS: '' }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`RuntimeName:\\s+${peerName}`));
    expect(r.stderr).toContain(`using runtime endpoint ${peer}`);
  });

  it('takes --embedded over an answering socket, silently', async () => {
    const r = await cli(['--embedded', 'version'], baseEnv({ ISULATS_KNOWN_ENDPOINTS: peer }));
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/RuntimeName:\s+isulats/);
    expect(r.stderr).toBe('');
  });

  it('falls back to the embedded engine when none answers: silent and stateless for a read-only verb, one note for a verb that changes state', async () => {
    const env = baseEnv({ ISULATS_KNOWN_ENDPOINTS: `unix://${join(dir, 'stale.sock')}` });
    const pods = await cli(['pods'], env);
    expect(pods.stderr).toBe('');
    expect(pods.code).toBe(0);
    expect(pods.stdout).toMatch(/^POD ID\s+CREATED\s+STATE\s+NAME/);
    expect(existsSync(join(dir, 'root'))).toBe(false);
    expect(existsSync(join(dir, 'state'))).toBe(false);

    const rmp = await cli(['rmp', '-a'], env);
    expect(rmp.code).toBe(0);
    const notes = rmp.stderr.split('\n').filter((l) => l.includes('using the embedded engine'));
    expect(notes).toEqual(['isulats: no CRI runtime answered on the known sockets; using the embedded engine (--embedded says so and silences this)']);
    expect(existsSync(join(dir, 'root'))).toBe(true);
  });
});

describe('read-only verbs on an engine that never ran', () => {
  it('answer empty or "not found" and create neither --root nor --state', async () => {
    const root = join(dir, 'fresh-root');
    const state = join(dir, 'fresh-state');
    const env = baseEnv({ ISULATS_KNOWN_ENDPOINTS: '' });
    const base = ['--root', root, '--state', state];
    for (const args of [['version'], ['pods'], ['ps', '-a'], ['images'], ['stats'], ['statsp'], ['imagefsinfo'], ['info']]) {
      const r = await cli([...base, ...args], env);
      expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
    expect((await cli([...base, 'ps', '-q'], env)).stdout).toBe('');
    for (const args of [['inspect', 'abc123'], ['inspectp', 'abc123'], ['logs', 'abc123'], ['inspecti', 'busybox']]) {
      const r = await cli([...base, ...args], env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/not found|no such image/);
    }
    expect(existsSync(root)).toBe(false);
    expect(existsSync(state)).toBe(false);
  });
});

describe('read-only verbs on a root whose state dir is gone (after a reboot)', () => {
  it('read the root through the embedded engine and create no state dir, nor leave a scratch one', async () => {
    const root = join(dir, 'kept-root');
    const state = join(dir, 'lost-state');
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    // TMPDIR: where the engine's scratch state goes for the call, checked empty after.
    const env = baseEnv({ ISULATS_KNOWN_ENDPOINTS: '', TMPDIR: tmp });
    const base = ['--root', root, '--state', state];
    writeFileSync(join(dir, 'ro-pod.json'), JSON.stringify({
      metadata: { name: 'before-reboot', namespace: 'ro', uid: 'b1c5e0a2-5d6f-4c1e-9a53-0c1f5f8e2a10', attempt: 0 },
      linux: { security_context: { namespace_options: { network: 2 } } },
    }));
    const runp = await cli([...base, 'runp', join(dir, 'ro-pod.json')], env);
    expect(runp.code, runp.stderr).toBe(0);
    const pod = runp.stdout.trim();
    try {
      expect((await cli([...base, 'stopp', pod], env)).code).toBe(0);
      // Nothing of the stopped pod is mounted under the state dir, which a reboot now empties.
      expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(state);
      rmSync(state, { recursive: true });

      const pods = await cli([...base, 'pods'], env);
      expect({ code: pods.code, stderr: pods.stderr }).toEqual({ code: 0, stderr: '' });
      expect(pods.stdout).toMatch(/before-reboot\s+ro\s/);
      const inspectp = await cli([...base, 'inspectp', pod], env);
      expect(inspectp.code, inspectp.stderr).toBe(0);
      expect(JSON.parse(inspectp.stdout).status).toMatchObject({ id: pod, state: 'SANDBOX_NOTREADY' });
      for (const args of [['version'], ['ps', '-a'], ['images'], ['stats'], ['statsp'], ['imagefsinfo'], ['info']]) {
        const r = await cli([...base, ...args], env);
        expect({ args, code: r.code, stderr: r.stderr }).toEqual({ args, code: 0, stderr: '' });
      }
      const missing = await cli([...base, 'inspect', 'abc123'], env);
      expect(missing.code).toBe(1);
      expect(existsSync(state)).toBe(false);
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      await cli([...base, 'rmp', '-f', pod], env);
    }
  }, 120_000);
});
