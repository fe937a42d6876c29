// Image verbs of the CLI against the rig's real containerd: pull, images
// (table, json, yaml, -q, --digests, -v, filters), inspecti, imagefsinfo, rmi.
// rmi works on an image pushed by this file only (unique content), never on
// the shared busybox and pause images.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { runCli, type CliResult } from '../rig/cli.js';
import { rigEnv } from '../rig/rig-env.js';
import { layer, pushImage } from './image-fixtures.js';

let endpoint: string;
let busybox: string;
let registry: string;
let own: { ref: string; configDigest: string };

function cli(args: string[]): Promise<CliResult> {
  return runCli(['-r', endpoint, '--timeout', '20s', ...args], { timeoutMs: 90_000 });
}

beforeAll(async () => {
  const env = rigEnv();
  endpoint = env.ISULATS_TEST_CRI_ENDPOINT;
  busybox = env.ISULATS_TEST_BUSYBOX;
  registry = env.ISULATS_TEST_REGISTRY;
  const l = await layer([{ name: 'hello.txt', type: 'file', data: `cli-images ${process.pid} ${Date.now()}\n`, mode: 0o644 }]);
  const repo = `isulats-cli/rmi-${process.pid}`;
  const pushed = await pushImage({ url: `http://${registry}` }, repo, 'v1', [l]);
  own = { ref: `${registry}/${repo}:v1`, configDigest: pushed.configDigest };
});

afterAll(async () => {
  if (own) await cli(['rmi', own.ref]);
});

describe('pull', () => {
  it('pulls busybox and prints crictl\'s line', async () => {
    const r = await cli(['pull', busybox]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Image is up to date for sha256:[0-9a-f]{64}\n$/);
  });

  it('pulls our own image, with --pod-config passed along', async () => {
    const { writePodConfig } = await import('../rig/pod-configs.js');
    const { makeTempDir, removeTempDir } = await import('../rig/temp-dir.js');
    const dir = await makeTempDir('ist-clii-');
    try {
      const pod = await writePodConfig(dir, { name: 'pull-ctx', format: 'yaml' });
      const r = await cli(['pull', '--pod-config', pod, own.ref]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`Image is up to date for ${own.configDigest}\n`);
    } finally {
      await removeTempDir(dir);
    }
  });

  it('fails with one line for a missing image and for no image name', async () => {
    const r = await cli(['pull', `${registry}/isulats-cli/does-not-exist:v0`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^isulats: pulling image: .+\n$/);
    const empty = await cli(['pull']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('isulats: Image name cannot be empty\n');
  });

  it('refuses --creds together with --auth', async () => {
    const r = await cli(['pull', '--creds', 'a:b', '--auth', 'YTpi', busybox]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('isulats: both `--creds` and `--auth` are specified\n');
  });
});

describe('images', () => {
  it('lists a crictl table with the busybox tag, a 13-char ID and a size', async () => {
    const r = await cli(['images']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^IMAGE\s+TAG\s+IMAGE ID\s+SIZE$/);
    const repo = busybox.slice(0, busybox.lastIndexOf(':'));
    const row = lines.find((l) => l.startsWith(`${repo} `) && /\slatest\s/.test(l));
    expect(row).toBeDefined();
    const cells = row!.split(/\s{2,}/);
    expect(cells[2]).toMatch(/^[0-9a-f]{13}$/);
    expect(cells[3]).toMatch(/^[\d.]+(B|kB|MB|GB)$/);
    // Columns line up: every cell starts where its header starts.
    expect(row!.indexOf(cells[2])).toBe(lines[0].indexOf('IMAGE ID'));
  });

  // The CLI passes the REPOSITORY argument as ListImages' filter; what comes back is the peer's call.
  if (rigEnv().ISULATS_TEST_CRI_PEER === 'containerd') {
    it('prints IDs with -q (containerd, like crictl, ignores the REPOSITORY filter)', async () => {
      const r = await cli(['images', '-q', busybox]);
      expect(r.code).toBe(0);
      const ids = r.stdout.trimEnd().split('\n');
      for (const id of ids) expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(ids).toContain(own.configDigest);
    });
  } else {
    it('prints IDs with -q, only of the image the REPOSITORY filter names (isulats applies it)', async () => {
      const r = await cli(['images', '-q', busybox]);
      expect(r.code).toBe(0);
      const ids = r.stdout.trimEnd().split('\n');
      const busyboxId = JSON.parse((await cli(['inspecti', '-o', 'json', busybox])).stdout).status.id as string;
      expect(ids).toEqual([busyboxId]);
      expect(ids).not.toContain(own.configDigest);
    });
  }

  it('adds a DIGEST column with --digests and full IDs with --no-trunc', async () => {
    const r = await cli(['images', '--digests', '--no-trunc']);
    expect(r.code).toBe(0);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^IMAGE\s+TAG\s+DIGEST\s+IMAGE ID\s+SIZE$/);
    const row = rows.find((l) => l.includes(own.configDigest))!;
    expect(row).toBeDefined();
    expect(row.split(/\s+/)[2]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('prints protobuf JSON and YAML of ListImagesResponse', async () => {
    const j = await cli(['images', '-o', 'json']);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout);
    const mine = doc.images.find((i: { id: string }) => i.id === own.configDigest);
    expect(Object.keys(mine)).toEqual(expect.arrayContaining(['id', 'repoTags', 'repoDigests', 'size', 'uid', 'username', 'spec']));
    expect(mine.size).toMatch(/^\d+$/);
    const y = await cli(['images', '-o', 'yaml']);
    expect(parseYaml(y.stdout).images.find((i: { id: string }) => i.id === own.configDigest).repoTags).toEqual([own.ref]);
  });

  it('prints verbose blocks with -v', async () => {
    const r = await cli(['images', '-v']);
    expect(r.stdout).toMatch(new RegExp(`(^|\\n)ID: ${own.configDigest}\\nRepoTags: ${own.ref.replace(/[.]/g, '\\.')}\\nRepoDigests: .+@sha256:[0-9a-f]{64}\\nSize: \\d+\\n`));
  });

  it('applies --filter and rejects unknown filters', async () => {
    const r = await cli(['images', '-q', '--filter', `reference=isulats-cli/rmi-${process.pid}`]);
    expect(r.stdout).toBe(`${own.configDigest}\n`);
    const bad = await cli(['images', '-f', 'colour=blue']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('isulats: unknown filter flag: colour=blue\n');
  });
});

describe('inspecti and imagefsinfo', () => {
  it('prints {"info", "status"} JSON for an image', async () => {
    const r = await cli(['inspecti', own.ref]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual([...Object.keys(doc)].sort()); // crictl 1.34: Go maps, keys sorted
    expect(doc.status.id).toBe(own.configDigest);
    expect(doc.status.repoTags).toEqual([own.ref]);
    // containerd's verbose info is JSON and is embedded parsed.
    expect(typeof doc.info).toBe('object');
  });

  it('supports go-template and table output', async () => {
    const t = await cli(['inspecti', '-o', 'go-template', '--template', '{{.status.id}} {{index .status.repoTags 0}}', own.ref]);
    expect(t.stdout).toBe(`${own.configDigest} ${own.ref}\n`);
    const tab = await cli(['inspecti', '-q', '-o', 'table', own.ref]);
    expect(tab.stdout).toMatch(new RegExp(`^ID: ${own.configDigest}\\nTag: .+\\nDigest: .+\\nSize: [\\d.]+k?B\\n$`));
  });

  it('fails for an unknown image with one line', async () => {
    const r = await cli(['inspecti', 'no-such-image:v0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('isulats: no such image "no-such-image:v0" present\n');
  });

  it('prints image filesystem usage as JSON and as a table', async () => {
    const r = await cli(['imagefsinfo']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    const fs = doc.status.imageFilesystems[0];
    expect(fs.fsId.mountpoint).toMatch(/^\//);
    expect(fs.usedBytes.value).toMatch(/^\d+$/);
    const t = await cli(['imagefsinfo', '-o', 'table']);
    expect(t.stdout).toMatch(/Image Filesystem \nTimeStamp\[0\]: \d+\nDisk\[0\]: [\d.]+\w*B\nInodes\[0\]: \d+\nMountpoint\[0\]: \//);
  });
});

describe('rmi', () => {
  it('removes an image by reference and prints Deleted: lines', async () => {
    const r = await cli(['rmi', own.ref]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`Deleted: ${own.ref}\n`);
    const after = await cli(['images', '-q']);
    expect(after.stdout).not.toContain(own.configDigest);
  });

  it('fails with exit 1 and one line for an unknown image', async () => {
    const r = await cli(['rmi', 'no-such-image:v0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('isulats: no such image no-such-image:v0\n');
  });
});
