// bin/isulats's fast path (src/fast/): `version`, `pods`, `ps`, `inspect`,
// `inspectp` and `inspecti` against a named socket print exactly what the full
// CLI prints, against the rig's real peer (containerd, or `isulats daemon` with
// ISULATS_TEST_PEER=isulats) with a kubelet-shaped pod and three containers (one
// running, one only created, one exited); every other form, and every failure,
// goes to the full CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

let endpoint: string;
let dir: string;
let cri: RawCriClient;
let podId = '';
let podName = '';
let image = '';
const ctr: Record<'running' | 'created' | 'exited', string> = { running: '', created: '', exited: '' };

/** No config file, no endpoint from the environment: the call names its socket with -r. */
const cleanEnv = { CONTAINER_RUNTIME_ENDPOINT: '', CRI_CONFIG_FILE: '' };
const fast = (args: string[]): Promise<CliResult> => runCli(['-r', endpoint, ...args], { env: { ...cleanEnv, ISULATS_FAST_PATH: 'require' } });
const full = (args: string[]): Promise<CliResult> => runCli(['-r', endpoint, ...args], { env: { ...cleanEnv, ISULATS_NO_FAST_PATH: '1' } });
/**
 * The CREATED column is relative to now: two calls may straddle a second, and a wider age
 * re-pads the whole table (both paths pad with the same tabwriter), so cell gaps count as one.
 */
const sameAge = (s: string) => s.replace(/\b(\d+|About an?|Less than a) (second|minute|hour)s? ago\b/g, '<age> ago').replace(/ {2,}/g, ' | ');
/** JSON compared as data: the runtime's maps (labels) come in any order. */
const comparable = (s: string): unknown => (s.startsWith('{') ? JSON.parse(s) : sameAge(s));

beforeAll(async () => {
  const env = rigEnv();
  endpoint = env.ISULATS_TEST_CRI_ENDPOINT;
  dir = await makeTempDir('ist-fast-');
  cri = openCriClient(endpoint);
  await cri.image('PullImage', { image: { image: env.ISULATS_TEST_BUSYBOX } });
  const uid = `5f1d8c3e-2b7a-4c1e-9d3f-${String(process.pid).padStart(12, '0')}`;
  const name = `web-frontend-7d9c8b6f5-x2k4q-${process.pid}`;
  podName = name;
  image = env.ISULATS_TEST_BUSYBOX;
  const podConfig = {
    metadata: { name, uid, namespace: 'fast-path-e2e', attempt: 1 },
    logDirectory: join(dir, 'logs'),
    labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'fast-path-e2e', 'io.kubernetes.pod.uid': uid, app: 'web' },
    annotations: { 'kubernetes.io/config.source': 'api' },
    // Host network: no CNI needed for what this file checks.
    linux: { securityContext: { namespaceOptions: { network: 2 } } },
  };
  podId = (await cri.runtime('RunPodSandbox', { config: podConfig }, 60_000)).podSandboxId;
  const container = (ctrName: string, command = ['sleep', '3600']) => ({
    podSandboxId: podId,
    config: {
      metadata: { name: ctrName, attempt: 2 },
      image: { image: env.ISULATS_TEST_BUSYBOX },
      command,
      // Characters Go's JSON escapes (<, >, &) and a JSON-looking value, for inspect's document.
      annotations: { 'example.com/note': '<a & b>', 'example.com/json': '{"k": [1, 2]}' },
      mounts: [{ containerPath: '/data', hostPath: dir, readonly: true }],
      labels: { 'io.kubernetes.container.name': ctrName, 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'fast-path-e2e' },
      logPath: `${ctrName}/0.log`,
    },
    sandboxConfig: podConfig,
  });
  ctr.running = (await cri.runtime('CreateContainer', container('nginx-sidecar'))).containerId;
  await cri.runtime('StartContainer', { containerId: ctr.running });
  ctr.created = (await cri.runtime('CreateContainer', container('init-config'))).containerId;
  ctr.exited = (await cri.runtime('CreateContainer', container('migrate-db', ['sh', '-c', 'exit 3']))).containerId;
  await cri.runtime('StartContainer', { containerId: ctr.exited });
  for (let i = 0; i < 100; i++) {
    if ((await cri.runtime('ContainerStatus', { containerId: ctr.exited })).status.state === 'CONTAINER_EXITED') break;
    await new Promise((r) => setTimeout(r, 100));
  }
}, 120_000);

afterAll(async () => {
  if (cri) {
    if (podId) {
      await cri.runtime('StopPodSandbox', { podSandboxId: podId }, 60_000).catch(() => undefined);
      await cri.runtime('RemovePodSandbox', { podSandboxId: podId }, 60_000).catch(() => undefined);
    }
    cri.close();
  }
  if (dir) await removeTempDir(dir);
}, 120_000);

describe('fast path', () => {
  it.each([
    [['version']],
    [['pods']], [['pods', '-q']], [['pods', '--no-trunc']], [['pod', '--quiet']],
    [['ps']], [['ps', '-a']], [['ps', '-aq']], [['ps', '-q', '-a']], [['ps', '-a', '--no-trunc']], [['containers', '--all']],
  ])('isulats %j prints what the full CLI prints', async (args) => {
    const [f, g] = [await fast(args), await full(args)];
    expect(f.stderr).toBe('');
    expect(f.code).toBe(0);
    expect(g.code).toBe(0);
    expect(sameAge(f.stdout)).toBe(sameAge(g.stdout));
  });

  // Factories: the IDs exist only once beforeAll ran.
  it.each<[string, () => string[]]>([
    ['inspect (running)', () => ['inspect', ctr.running]],
    ['inspect (created)', () => ['inspect', ctr.created]],
    ['inspect (exited)', () => ['inspect', ctr.exited]],
    ['inspect of three, as one array', () => ['inspect', ctr.running, ctr.created, ctr.exited]],
    ['inspect by name', () => ['inspect', 'nginx-sidecar']],
    ['inspect by ID prefix, -o json', () => ['inspect', '-o', 'json', ctr.exited.slice(0, 12)]],
    ['inspect -q', () => ['inspect', '-q', ctr.running]],
    ['inspect -o table', () => ['inspect', '-o', 'table', ctr.running]],
    ['inspect --output=table -q (exited)', () => ['inspect', ctr.exited, '--output=table', '-q']],
    ['inspectp', () => ['inspectp', podId]],
    ['inspectp by name', () => ['inspectp', podName]],
    ['inspectp -o table', () => ['inspectp', '-o', 'table', podId.slice(0, 8)]],
    ['inspectp --quiet', () => ['inspectp', '--quiet', podId]],
    ['inspecti', () => ['inspecti', image]],
    ['inspecti -o table', () => ['inspecti', '-o', 'table', image]],
    ['inspecti -q', () => ['inspecti', '-q', image]],
  ])('isulats %s prints what the full CLI prints', async (_, args) => {
    const [f, g] = [await fast(args()), await full(args())];
    expect(f.stderr).toBe('');
    expect(f.code).toBe(0);
    expect(g.code).toBe(0);
    expect(sameAge(f.stdout)).toBe(sameAge(g.stdout));
  });

  const MISSING = 'f'.repeat(64);
  it.each<[string, () => string[]]>([
    ['inspect of a full ID the runtime does not have (its NotFound)', () => ['inspect', MISSING]],
    ['inspect of a name nothing has', () => ['inspect', 'no-such-container']],
    ['inspect of an empty ID', () => ['inspect', '']],
    ['inspect -o table of one that is there, then one that is not', () => ['inspect', '-o', 'table', ctr.running, MISSING]],
    ['inspectp of a full ID the runtime does not have', () => ['inspectp', MISSING]],
    ['inspectp of a name nothing has', () => ['inspectp', 'no-such-pod']],
    ['inspecti of an image the runtime does not have', () => ['inspecti', 'no-such-image:1']],
  ])('isulats %s fails as the full CLI does: the same output, error line and exit code', async (_, args) => {
    const [f, g] = [await fast(args()), await full(args())];
    expect({ code: f.code, stderr: f.stderr }).toEqual({ code: 1, stderr: g.stderr });
    expect(g.code).toBe(1);
    expect(sameAge(f.stdout)).toBe(sameAge(g.stdout));
    expect(f.stderr).toMatch(/^isulats: .*(not found|no such image|cannot be empty)/);
  });

  it('inspect shows the status and the peer\'s verbose info, so the comparison above compares something', async () => {
    const doc = JSON.parse((await fast(['inspect', ctr.exited])).stdout);
    expect(doc.status).toMatchObject({ id: ctr.exited, state: 'CONTAINER_EXITED', exitCode: 3, annotations: { 'example.com/note': '<a & b>' } });
    expect(doc.status.mounts[0]).toMatchObject({ containerPath: '/data', readonly: true });
    expect(Object.keys(doc).length).toBeGreaterThan(1); // info keys beside status
    expect((await fast(['inspect', ctr.exited])).stdout).toContain('\\u003ca \\u0026 b\\u003e');
  });

  it('shows the peer\'s objects, so the comparison above compares something', async () => {
    const ps = await fast(['ps', '-a']);
    expect(ps.stdout).toMatch(/nginx-sidecar/);
    expect(ps.stdout).toMatch(/init-config/);
    expect((await fast(['ps'])).stdout).not.toMatch(/init-config/);
    expect((await fast(['pods', '--no-trunc'])).stdout).toContain(podId);
  });

  it.each([
    [['pods', '-o', 'json']], [['ps', '--name', 'nginx']], [['-D', 'version']], [['ps', '-r']],
    [['inspect', '-o', 'yaml', 'nginx-sidecar']], [['inspect', '--template', '{{.status.id}}', '-o', 'go-template', 'nginx-sidecar']], [['inspect']],
  ])('declines %j, which the full CLI then runs', async (args) => {
    expect((await fast(args)).code).toBe(97);
    const [byDefault, viaFull] = [await runCli(['-r', endpoint, ...args], { env: cleanEnv }), await full(args)];
    expect(byDefault.code).toBe(viaFull.code);
    expect(comparable(byDefault.stdout)).toEqual(comparable(viaFull.stdout));
  });

  it('finds the known socket that answers as the full CLI does, and says so the same way', async () => {
    const probeEnv = { ...cleanEnv, ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock'), ISULATS_KNOWN_ENDPOINTS: endpoint };
    for (const args of [['version'], ['ps', '-a']]) {
      const f = await runCli(args, { env: { ...probeEnv, ISULATS_FAST_PATH: 'require' } });
      const g = await runCli(args, { env: { ...probeEnv, ISULATS_NO_FAST_PATH: '1' } });
      expect(f.code).toBe(0);
      expect(f.stderr).toBe(`isulats: using runtime endpoint ${endpoint}, the first known CRI socket that answered; set --runtime-endpoint (or runtime-endpoint in the config file) to choose\n`);
      expect(f.stderr).toBe(g.stderr);
      expect(sameAge(f.stdout)).toBe(sameAge(g.stdout));
    }
  });

  it('hands a socket nothing listens on to the full CLI, which reports it', async () => {
    const sock = `unix://${join(dir, 'none.sock')}`;
    const declined = await runCli(['-r', sock, 'version'], { env: { ...cleanEnv, ISULATS_FAST_PATH: 'require' } });
    expect(declined.code).toBe(97);
    const [viaFast, viaFull] = [await runCli(['-r', sock, 'version'], { env: cleanEnv }), await runCli(['-r', sock, 'version'], { env: { ...cleanEnv, ISULATS_NO_FAST_PATH: '1' } })];
    expect(viaFast.code).toBe(1);
    expect(viaFast.stderr).toBe(viaFull.stderr);
    expect(viaFast.stdout).toBe('');
  });

  it('ends quietly when the reader goes away (| head -1)', async () => {
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('sh', ['-c', `"${process.execPath}" bin/isulats -r ${endpoint} ps -a | head -1`], { cwd: join(import.meta.dirname, '../..'), encoding: 'utf8', env: { ...process.env, ...cleanEnv, ISULATS_FAST_PATH: 'require' } });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^CONTAINER\s+IMAGE/);
  });
});
