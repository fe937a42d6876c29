// The CLI against the embedded engine (no endpoint: the default), with a temp
// root, state dir and CNI network: isula's verbs, both forms of `run`, image
// import/tag/save/load, and the one-line errors for verbs a remote runtime lacks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hostname as nodeHostname } from 'node:os';
import { runCli, type CliResult } from '../rig/cli.js';
import type { CniNetwork } from '../rig/cni-conf.js';
import { mountsUnder } from '../rig/host-cleanup.js';
import { embeddedEnv, prepareEmbeddedEngine, removeEmbeddedEngine } from '../rig/embedded-engine.js';
import { waitFor } from '../rig/wait.js';

let dir: string;
let net: CniNetwork;
let base: string[];
const env = () => embeddedEnv(dir);
const cli = (args: string[], opts: { input?: string; timeoutMs?: number } = {}): Promise<CliResult> =>
  runCli([...base, ...args], { env: env(), timeoutMs: opts.timeoutMs ?? 60_000, input: opts.input });

async function ok(args: string[], opts?: { input?: string; timeoutMs?: number }): Promise<string> {
  const r = await cli(args, opts);
  if (r.code !== 0) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  let rootfs: string;
  ({ dir, net, base, rootfs } = await prepareEmbeddedEngine('ist-emb-'));
  await ok(['import', '--cmd', 'sh', rootfs, 'local/busybox:test']);
}, 180_000);

afterAll(() => removeEmbeddedEngine({ dir, net }, () => cli(['rmp', '-a', '-f'])), 180_000);

describe('embedded CLI', () => {
  it('runs a container in isula form, attached, and passes its exit code through', async () => {
    const r = await cli(['run', '--rm', 'local/busybox:test', 'sh', '-c', 'echo out-line; echo err-line >&2; exit 3']);
    expect(r.stdout).toContain('out-line');
    expect(r.stderr).toContain('err-line');
    expect(r.code).toBe(3);
    // --rm removed the pod.
    expect((await ok(['pods', '-q'])).trim()).toBe('');
  });

  it('runs detached, then kill, wait, top, pause and unpause, restart work on it', async () => {
    const id = (await ok(['run', '-d', '--name', 'sleeper', 'local/busybox:test', 'sh', '-c', 'echo started; exec sleep 3600'])).trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const top = await ok(['top', id.slice(0, 12)]);
    expect(top.split('\n')[0]).toMatch(/^UID\s+PID\s+PPID\s+STIME\s+TIME\s+CMD/);
    expect(top).toContain('sleep 3600');

    await ok(['pause', id]);
    expect(await ok(['inspect', '-o', 'go-template', '--template', '{{.status.state}}', id])).toContain('CONTAINER_RUNNING');
    await ok(['unpause', id]);

    await ok(['restart', '-t', '1', id]);
    expect((await ok(['ps', '-q', '--state', 'running'])).trim()).toBe(id);

    await ok(['kill', '-s', 'KILL', id]);
    expect((await ok(['wait', id])).trim()).toBe('137');
    const pod = (await ok(['ps', '-a', '-o', 'go-template', '--template', '{{range .containers}}{{.podSandboxId}}{{end}}'])).trim();
    await ok(['rmp', '-f', pod]);
  });

  it('resolves a name for exec, logs, inspect, top and rmp, and refuses a second run with that name', async () => {
    const id = (await ok(['run', '-d', '--name', 'named-web', 'local/busybox:test', 'sh', '-c', 'echo named-hello; exec sleep 3600'])).trim();
    try {
      expect((await ok(['exec', '-s', 'named-web', 'echo', 'by-name'])).trim()).toBe('by-name');
      await waitFor(async () => (await ok(['logs', 'named-web'])).includes('named-hello'), { timeoutMs: 20_000, what: 'the log line' });
      expect(JSON.parse(await ok(['inspect', 'named-web'])).status.id).toBe(id);
      expect(await ok(['top', 'named-web'])).toContain('sleep 3600');
      // kubelet's labels on the container: ps shows its pod and namespace (crictl prints "unknown" without them).
      const row = (await ok(['ps', '--name', '^named-web$'])).trim().split('\n')[1]!.split(/\s{2,}/);
      expect(row.slice(-2)).toEqual(['named-web', 'default']);
      const again = await cli(['run', '-d', '--name', 'named-web', 'local/busybox:test', 'true']);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^isulats: run: the name "named-web" is already in use by pod [0-9a-f]{64}: .+\n$/);
      expect((await ok(['pods', '-q', '--name', '^named-web$'])).trim().split('\n')).toHaveLength(1);
    } finally {
      await cli(['rmp', '-f', 'named-web']);
      // isula form's pods log under /var/log/pods, as kubelet's; kubelet would remove the dir.
      for (const d of await readdir('/var/log/pods').catch(() => [] as string[])) if (d.startsWith('default_named-web_')) await rm(join('/var/log/pods', d), { recursive: true, force: true });
    }
    expect((await ok(['pods', '-q', '--name', '^named-web$'])).trim()).toBe('');
  });

  it('says a short-named image is not present locally and that its pull failed, in one line', async () => {
    const r = await cli(['run', '--rm', 'isulats-absent-image', 'true']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^isulats: image "isulats-absent-image" is not present locally, and pulling it failed: .+\n$/);
  });

  it('names the pod\'s host after --name when it can be a hostname, and leaves the node\'s otherwise', async () => {
    for (const [name, expected] of [['web-0', 'web-0'], ['my_app.v2', nodeHostname()]]) {
      const r = await cli(['run', '--rm', '--name', name!, 'local/busybox:test', 'hostname']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe(expected);
    }
  });

  it('prints the engine\'s pod metrics and metric descriptors in-process (metricsp, metricdescs)', async () => {
    const id = (await ok(['run', '-d', '--name', 'measured', 'local/busybox:test', 'sleep', '3600'])).trim();
    const pod = (await ok(['ps', '-o', 'go-template', '--template', '{{range .containers}}{{.podSandboxId}}{{end}}', '--id', id])).trim();
    try {
      const doc = JSON.parse(await ok(['metricsp']));
      const entry = doc.podMetrics.find((p: { podSandboxId: string }) => p.podSandboxId === pod);
      expect(entry.containerMetrics.map((c: { containerId: string }) => c.containerId)).toEqual([id]);
      const names = entry.containerMetrics[0].metrics.map((m: { name: string }) => m.name);
      expect(names).toEqual(expect.arrayContaining(['container_cpu_usage_seconds_total', 'container_memory_working_set_bytes']));
      const descs = JSON.parse(await ok(['metricdescs', '-o', 'json'])).descriptors.map((d: { name: string }) => d.name);
      expect(descs).toEqual(expect.arrayContaining(names));
    } finally {
      await ok(['rmp', '-f', pod]);
    }
  });

  it('runs from crictl config files and cleans up with stopp and rmp', async () => {
    const podCfg = join(dir, 'pod.yaml');
    const ctrCfg = join(dir, 'ctr.json');
    await writeFile(podCfg, `metadata:\n  name: cfgpod\n  namespace: default\n  uid: cfgpod-uid\nlogDirectory: ${join(dir, 'logs')}\nlinux: {}\n`);
    await writeFile(ctrCfg, JSON.stringify({ metadata: { name: 'c1' }, image: { image: 'local/busybox:test' }, command: ['sh', '-c', 'echo from-config; sleep 3600'], log_path: 'c1/0.log' }));
    const id = (await ok(['run', ctrCfg, podCfg])).trim();
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const exec = await cli(['exec', '-s', id, 'sh', '-c', 'hostname; exit 4']);
    expect(exec.code).toBe(4);
    // No hostname in the pod config: the node's, as with containerd.
    expect(exec.stdout.trim()).toBe(nodeHostname());
    const pods = await ok(['pods', '--name', 'cfgpod', '-q']);
    expect(pods.trim()).toMatch(/^[0-9a-f]{64}$/);
    await ok(['stopp', pods.trim()]);
    await ok(['rmp', pods.trim()]);
    expect(existsSync(join(dir, 'logs'))).toBe(true);
  });

  it('streams an interactive exec in-process with stdin', async () => {
    const id = (await ok(['run', '-d', 'local/busybox:test', 'sleep', '3600'])).trim();
    const r = await cli(['exec', '-i', id, 'sh', '-c', 'read a; echo "got $a"; exit 6'], { input: 'payload\n' });
    expect(r.stdout).toBe('got payload\n');
    expect(r.code).toBe(6);
    await ok(['rm', '-f', id]);
    await ok(['rmp', '-a', '-f']);
  });

  it('tags, saves, loads and removes images', async () => {
    await ok(['tag', 'local/busybox:test', 'local/busybox:copy']);
    const images = await ok(['images']);
    expect(images).toMatch(/docker\.io\/local\/busybox\s+copy/);
    const tar = join(dir, 'saved.tar');
    await ok(['save', '-o', tar, 'local/busybox:copy']);
    // CRI RemoveImage (as containerd) removes the image with all its names.
    await ok(['rmi', 'local/busybox:copy']);
    expect(await ok(['images'])).not.toMatch(/docker\.io\/local\/busybox/);
    const loaded = await ok(['load', '-i', tar]);
    expect(loaded).toContain('docker.io/local/busybox:copy');
    await ok(['tag', 'local/busybox:copy', 'local/busybox:test']);
    expect(await ok(['images'])).toMatch(/docker\.io\/local\/busybox\s+test/);
  });

  it('refuses bad input with one line and exit 1, leaving nothing behind', async () => {
    const before = await readdir(join(dir, 'root', 'containers')).catch(() => []);
    for (const args of [
      ['run', '--rm', 'local/no-such-image:1', 'true'],
      ['kill', 'ffffffffffff'],
      ['import', join(dir, 'missing-rootfs'), 'x/y:1'],
      ['run', '-t', 'local/busybox:test', 'sh'],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await ok(['pods', '-q'])).trim()).toBe('');
    expect(await readdir(join(dir, 'root', 'containers')).catch(() => [])).toEqual(before);
  });

  it('refuses a NUL byte in a config file\'s names in one line, before anything is made (runp, create)', async () => {
    const podCfg = join(dir, 'nul-pod.json');
    const ctrCfg = join(dir, 'nul-ctr.json');
    const pod = { metadata: { name: 'nulpod', namespace: 'default', uid: 'nulpod-uid' }, linux: {} };
    await writeFile(podCfg, JSON.stringify({ ...pod, metadata: { ...pod.metadata, namespace: 'def\0ault' } }));
    let r = await cli(['runp', podCfg]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('config.metadata.namespace must not contain a NUL byte')]);
    expect((await ok(['pods', '-q'])).trim()).toBe('');

    await writeFile(podCfg, JSON.stringify(pod));
    await writeFile(ctrCfg, JSON.stringify({ metadata: { name: 'c\0x' }, image: { image: 'local/busybox:test' }, command: ['sleep', '3600'] }));
    const podId = (await ok(['runp', podCfg])).trim();
    r = await cli(['create', podId, ctrCfg, podCfg]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining('config.metadata.name must not contain a NUL byte')]);
    expect((await ok(['ps', '-a', '-q'])).trim()).toBe('');
    await ok(['rmp', '-f', podId]);
  });

  it('keeps the built-in pause image on rmi --prune, as containerd keeps its pinned sandbox image', async () => {
    // A pod with a pause makes the image (once per engine).
    await ok(['run', '--rm', 'local/busybox:test', 'true']);
    await ok(['rmp', '-a', '-f']);
    const pinned = (JSON.parse(await ok(['images', '-o', 'json'])) as { images: Array<{ repoTags: string[]; pinned: boolean }> }).images.filter((i) => i.pinned);
    expect(pinned.map((i) => i.repoTags)).toEqual([['docker.io/isulats/pause:3.9']]);
    await ok(['rmi', '--prune']);
    expect(await ok(['images'])).toMatch(/docker\.io\/isulats\/pause\s+3\.9/);
    await ok(['rmi', 'local/busybox:test']).catch(() => undefined);
  });

  it('leaves no mounts of its own once pods are removed', async () => {
    await ok(['rmp', '-a', '-f']);
    const mounts = await mountsUnder(dir);
    expect(mounts).toEqual([]);
    await rm(join(dir, 'saved.tar'), { force: true });
  });
});

describe('isula verbs against a remote runtime', () => {
  it('says clearly that they are not supported', async () => {
    const endpoint = process.env.ISULATS_TEST_CONTAINERD;
    if (!endpoint) throw new Error('the rig did not provide ISULATS_TEST_CONTAINERD');
    const r = await runCli(['-r', endpoint, 'tag', 'a', 'b']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^isulats: tag is not supported by this runtime/);
  });
});
