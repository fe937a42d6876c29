// Pod verbs of the CLI against the rig's real containerd: runp, pods (table,
// json, yaml, go-template, -q, filters), inspectp, stopp, rmp, and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { runCli, type CliResult } from '../rig/cli.js';
import { writePodConfig } from '../rig/pod-configs.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const NS = `cli-pods-${process.pid}`;
let dir: string;
let endpoint: string;
const created: string[] = [];

function cli(args: string[], input?: string): Promise<CliResult> {
  return runCli(['-r', endpoint, '--timeout', '10s', ...args], { input, timeoutMs: 60_000 });
}

async function runp(name: string, opts: { format?: 'json' | 'yaml'; labels?: Record<string, string> } = {}): Promise<string> {
  const path = await writePodConfig(dir, { name, namespace: NS, labels: opts.labels, format: opts.format, logDirectory: join(dir, name) });
  const r = await cli(['runp', path]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const id = r.stdout.trim();
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  created.push(id);
  return id;
}

/** Column start offsets of a tabwriter header. */
function columnStarts(header: string, names: string[]): number[] {
  return names.map((n) => header.indexOf(n));
}

beforeAll(async () => {
  endpoint = rigEnv().ISULATS_TEST_CRI_ENDPOINT;
  dir = await makeTempDir('ist-clip-');
});

afterAll(async () => {
  if (created.length) await cli(['rmp', '-f', ...created]);
  if (dir) await removeTempDir(dir);
});

describe('runp and pods', () => {
  let web: string;
  let db: string;

  beforeAll(async () => {
    web = await runp('web', { labels: { app: 'web', tier: 'front' } });
    // The second pod comes from a lowerCamelCase YAML file.
    const yamlPath = join(dir, 'db.yaml');
    await writeFile(
      yamlPath,
      [
        'metadata:',
        '  name: db',
        `  namespace: ${NS}`,
        `  uid: db-${process.pid}`,
        'logDirectory: ' + join(dir, 'db'),
        'labels:',
        '  app: db',
        'linux:',
        '  securityContext:',
        '    namespaceOptions: {network: 0, pid: 1, ipc: 0}',
        '',
      ].join('\n'),
    );
    const r = await cli(['runp', yamlPath]);
    expect(r.code).toBe(0);
    db = r.stdout.trim();
    created.push(db);
  });

  it('lists pods as a crictl table: header, 13-char IDs, "ago", aligned columns', async () => {
    const r = await cli(['pods', '--namespace', NS]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const names = ['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME'];
    const starts = columnStarts(lines[0], names);
    expect(starts[0]).toBe(0);
    for (let i = 1; i < starts.length; i++) expect(starts[i]).toBeGreaterThanOrEqual(starts[i - 1] + 20);
    // Newest first: db, then web.
    const cells = (line: string) => starts.map((s, i) => line.slice(s, starts[i + 1] ?? undefined).trim());
    expect(cells(lines[1])).toEqual([db.slice(0, 13), expect.stringMatching(/ ago$/), 'Ready', 'db', NS, '0', '(default)']);
    expect(cells(lines[2])).toEqual([web.slice(0, 13), expect.stringMatching(/ ago$/), 'Ready', 'web', NS, '0', '(default)']);
  });

  it('prints only IDs with -q and full IDs with --no-trunc', async () => {
    const q = await cli(['pods', '-q', '--namespace', NS]);
    expect(q.stdout).toBe(`${db}\n${web}\n`);
    const full = await cli(['pods', '--no-trunc', '--namespace', NS]);
    expect(full.stdout).toContain(web);
  });

  it('filters by name regexp, label, state, id prefix, --last and --latest', async () => {
    const ids = async (...args: string[]) => (await cli(['pods', '-q', '--namespace', NS, ...args])).stdout.trim().split('\n').filter(Boolean);
    expect(await ids('--name', '^w')).toEqual([web]);
    expect(await ids('--label', 'app=db')).toEqual([db]);
    expect(await ids('--label', 'app=web', '--label', 'tier=front')).toEqual([web]);
    expect(await ids('--state', 'ready')).toEqual([db, web]);
    expect(await ids('--state', 'notready')).toEqual([]);
    expect(await ids('--id', web.slice(0, 8))).toEqual([web]);
    expect(await ids('--last', '1')).toEqual([db]);
    expect(await ids('-l')).toEqual([db]);
    const bad = await cli(['pods', '--label', 'novalue']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe('isulats: incorrectly specified label: novalue');
  });

  it('prints the protobuf JSON of the list with crictl key order', async () => {
    const r = await cli(['pods', '-o', 'json', '--namespace', NS]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(['items']);
    expect(doc.items.map((p: any) => p.id)).toEqual([db, web]);
    const pod = doc.items[1];
    expect(Object.keys(pod)).toEqual(['id', 'metadata', 'state', 'createdAt', 'labels', 'annotations', 'runtimeHandler']);
    expect(pod.state).toBe('SANDBOX_READY');
    expect(pod.createdAt).toMatch(/^\d{19}$/);
    expect(pod.metadata).toMatchObject({ name: 'web', namespace: NS, attempt: 0 });
    expect(pod.labels).toEqual({ app: 'web', tier: 'front' });
  });

  it('prints YAML as crictl does: sorted keys, unindented sequences', async () => {
    const r = await cli(['pods', '-o', 'yaml', '--name', '^web$', '--namespace', NS]);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('items:\n- annotations:')).toBe(true);
    expect(parseYaml(r.stdout).items[0].id).toBe(web);
  });

  it('runs a go-template over the JSON document', async () => {
    const r = await cli(['pods', '-o', 'go-template', '--template', '{{range .items}}{{.metadata.name}} {{end}}', '--namespace', NS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('db web \n');
  });

  it('inspects a pod by prefix as {"info", "status"} JSON with RFC 3339 times', async () => {
    const r = await cli(['inspectp', web.slice(0, 10)]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual([...Object.keys(doc)].sort()); // crictl 1.34: Go maps, keys sorted
    expect(Object.keys(doc.status)).toEqual([...Object.keys(doc.status)].sort());
    expect(doc.status.id).toBe(web);
    expect(doc.status.state).toBe('SANDBOX_READY');
    expect(doc.status.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    // containerd's verbose info is JSON, printed parsed.
    expect(typeof doc.info).toBe('object');
    // containerd's pod has a pause process; ours, sharing no PID namespace, has pins instead.
    if (doc.info.infra === false) {
      expect(doc.info.pid).toBe(0);
      expect(doc.info.netnsPath).toMatch(/\/netns\/[0-9a-f]{64}$/);
    } else {
      expect(doc.info.pid).toBeGreaterThan(0);
    }
    const quiet = JSON.parse((await cli(['inspectp', '-q', web])).stdout);
    expect(Object.keys(quiet)).toEqual(['status']);
  });

  it('inspects a pod as YAML and as a table', async () => {
    const y = await cli(['inspectp', '-o', 'yaml', web]);
    expect(parseYaml(y.stdout).status.id).toBe(web);
    const t = await cli(['inspectp', '-o', 'table', '-q', web]);
    expect(t.stdout).toMatch(new RegExp(`^ID: ${web}\nName: web\nUID: .+\nNamespace: ${NS}\nAttempt: 0\nStatus: SANDBOX_READY\nCreated: \\d{4}-.+\nIP Addresses: \\d+\\.\\d+\\.\\d+\\.\\d+\nLabels:\n\tapp -> web\n\ttier -> front\n`));
  });

  it('stops a pod by prefix, refuses to remove a ready pod without -f, removes with -f', async () => {
    const extra = await runp('tmp');
    const stop = await cli(['stopp', extra.slice(0, 12)]);
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(`Stopped sandbox ${extra.slice(0, 12)}\n`);
    expect((await cli(['pods', '-q', '--state', 'notready', '--namespace', NS])).stdout.trim()).toBe(extra);

    const ready = await runp('tmp2');
    const refused = await cli(['rmp', ready]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`isulats: pod sandbox "${ready}" is running, please stop it first`);

    const rm = await cli(['rmp', '-f', ready, extra]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toBe(`Stopped sandbox ${ready}\nRemoved sandbox ${ready}\nRemoved sandbox ${extra}\n`);
    expect((await cli(['pods', '-q', '--name', '^tmp', '--namespace', NS])).stdout).toBe('');
  });
});

describe('rmp --all', () => {
  // Runs last in this file; the rig's containerd belongs to this test run alone.
  it('stops and removes every pod with -a -f', async () => {
    const a = await runp('all-a');
    const b = await runp('all-b');
    const r = await cli(['rmp', '-a', '-f']);
    expect(r.code).toBe(0);
    for (const id of [a, b]) {
      expect(r.stdout).toContain(`Stopped sandbox ${id}\n`);
      expect(r.stdout).toContain(`Removed sandbox ${id}\n`);
    }
    expect((await cli(['pods', '-q'])).stdout).toBe('');
    created.length = 0;
    const again = await cli(['rmp', '-a']);
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('bad input', () => {
  it('refuses a missing pod config in one line', async () => {
    const r = await cli(['runp', join(dir, 'nope.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`isulats: load pod config file: config at ${join(dir, 'nope.json')} not found\n`);
  });

  it('refuses a malformed pod config in one line', async () => {
    const p = join(dir, 'bad.json');
    await writeFile(p, '{"metadata": {"name": ');
    const r = await cli(['runp', p]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^isulats: load pod config file: .*bad\.json: .+\n$/);
  });

  it('reports an unknown pod ID as not found (stopp, idempotent, is cli-operator\'s)', async () => {
    for (const verb of [['inspectp'], ['rmp']]) {
      const r = await cli([...verb, 'ffffffffffff0']);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/not found/);
    }
  });

  it('refuses an unknown output format', async () => {
    const r = await cli(['pods', '-o', 'xml']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('isulats: unsupported output format "xml"');
  });
});
