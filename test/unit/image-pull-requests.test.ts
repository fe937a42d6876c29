// The requests a pull makes of a registry, seen by a scripted registry on loopback (plain http,
// as docker's rule lets loopback registries be): the image service in a temp root.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { linkSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { MEDIA } from '../../src/runtime/image/manifest.js';
import { layer, type BuiltLayer } from '../integration/image-fixtures.js';

interface ScriptedRegistry {
  host: string;
  /** Every request, in arrival order: "GET /v2/...". */
  requests: string[];
  /** Connections that opened with a TLS handshake (answered 400 by the plain server). */
  tlsAttempts: number;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Script {
  /** Delays the answer to a path (`seen`: the requests so far). */
  hold?: (path: string, seen: string[]) => Promise<void>;
  /** The config's diff IDs (default: the layers'). */
  diffIds?: string[];
}

/** Serves one image (repo `team/app-7f3c2e1a`, tag `v1.4.2`) as the script says. */
async function scriptedRegistry(layers: BuiltLayer[], script: Script = {}) {
  const hold = script.hold ?? (async () => {});
  const config = Buffer.from(JSON.stringify({
    architecture: 'amd64', os: 'linux', config: { Cmd: ['/bin/app'] },
    rootfs: { type: 'layers', diff_ids: script.diffIds ?? layers.map((l) => l.diffId) },
  }));
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2, mediaType: MEDIA.dockerManifest,
    config: { mediaType: MEDIA.dockerConfig, digest: sha256Digest(config), size: config.length },
    layers: layers.map((l) => ({ mediaType: l.mediaType, digest: l.digest, size: l.blob.length })),
  }));
  const blobs = new Map<string, Buffer>([[sha256Digest(config), config], ...layers.map((l) => [l.digest, l.blob] as [string, Buffer])]);
  const reg: ScriptedRegistry = { host: '', requests: [], tlsAttempts: 0 };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    reg.requests.push(`${req.method} ${path}`);
    void hold(path, reg.requests).then(() => {
      if (path === '/v2/') return void res.writeHead(200).end('{}');
      if (path === '/v2/team/app-7f3c2e1a/manifests/v1.4.2') {
        return void res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest, 'Docker-Content-Digest': sha256Digest(manifest) }).end(manifest);
      }
      const blob = blobs.get(path.split('/blobs/')[1] ?? '');
      if (blob) return void res.writeHead(200, { 'Content-Length': blob.length }).end(blob);
      res.writeHead(404).end();
    });
  });
  server.on('clientError', (_error, socket) => {
    reg.tlsAttempts++;
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  reg.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return reg;
}

async function imageService(): Promise<ImageService> {
  const dir = await mkdtemp(join(tmpdir(), 'ist-pr-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return ImageService.open({ root: join(dir, 'root'), state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
}

const appLayer = () => layer([
  { name: 'bin/', type: 'directory', mode: 0o755 },
  { name: 'bin/app', type: 'file', mode: 0o755, data: '#!/bin/sh\necho app\n' },
]);

describe('pull requests', () => {
  it('downloads the layers while the config is still on its way', async () => {
    const l = await appLayer();
    // The config answer waits (bounded: 60 s) for a layer request: a pull that asks for the layers
    // only after the config has arrived shows the config request answered first.
    const answered: string[] = [];
    const reg = await scriptedRegistry([l], {
      hold: async (path, seen) => {
        const isConfig = path.includes('/blobs/') && !path.endsWith(l.digest);
        if (isConfig) {
          for (let i = 0; i < 6000 && !seen.some((r) => r.endsWith(l.digest)); i++) await new Promise((r) => setTimeout(r, 10));
        }
        answered.push(isConfig ? 'config' : path.endsWith(l.digest) ? 'layer' : 'other');
      },
    });
    const svc = await imageService();
    const res = await svc.pullImage({ image: { image: `${reg.host}/team/app-7f3c2e1a:v1.4.2` } });
    expect(res.imageRef).toMatch(/^sha256:/);
    expect(answered.indexOf('layer')).toBeLessThan(answered.indexOf('config'));
    const resolved = await svc.resolveImage(`${reg.host}/team/app-7f3c2e1a:v1.4.2`);
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'bin/app'), 'utf8')).toBe('#!/bin/sh\necho app\n');
  }, 90_000);

  it('fails with the config error, after the layer download settles, and keeps no image or snapshot', async () => {
    const l = await appLayer();
    const other = await layer([{ name: 'x', type: 'file', data: 'x' }]);
    // The config names two layers, the manifest one; the layer answer comes after the config's.
    const reg = await scriptedRegistry([l], {
      diffIds: [l.diffId, other.diffId],
      hold: async (path) => {
        if (path.endsWith(l.digest)) await new Promise((r) => setTimeout(r, 300));
      },
    });
    const svc = await imageService();
    await expect(svc.pullImage({ image: { image: `${reg.host}/team/app-7f3c2e1a:v1.4.2` } })).rejects.toThrow(/2 layer diff IDs, the manifest 1 layers/);
    expect((await svc.listImages({})).images).toHaveLength(0);
    expect(await svc.ctx.layers.list()).toHaveLength(0);
    // The download that was under way when the config failed finished before the pull answered.
    expect(await svc.ctx.blobs.has(l.digest)).toBe(true);
  });

  it('asks a loopback registry over plain http at once once it is known to speak it', async () => {
    const reg = await scriptedRegistry([await appLayer()]);
    const svc = await imageService();
    const image = `${reg.host}/team/app-7f3c2e1a:v1.4.2`;
    await svc.pullImage({ image: { image } });
    expect(reg.tlsAttempts).toBe(1);
    await svc.removeImage({ image: { image } });
    await svc.pullImage({ image: { image } });
    await svc.pullImage({ image: { image } });
    expect(reg.tlsAttempts).toBe(1);
  });

  it('writes nothing when the image is here already and its tag points at it, and both again after a removal', async () => {
    const reg = await scriptedRegistry([await appLayer()]);
    const dir = await mkdtemp(join(tmpdir(), 'ist-pr-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const svc = await ImageService.open({ root: join(dir, 'root'), state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
    const image = `${reg.host}/team/app-7f3c2e1a:v1.4.2`;
    const { imageRef } = await svc.pullImage({ image: { image } });
    const record = join(dir, 'root', 'images', `${imageRef.slice(7)}.json`);
    const index = join(dir, 'root', 'images', 'index.json');
    const tags = () => JSON.parse(readFileSync(index, 'utf8')).tags as Record<string, string>;
    expect(tags()).toEqual({ [image]: imageRef });
    // Every write is a rename of a new file over the old. A second name on each file keeps its
    // inode (so no new file can get it): the same inode behind both names means not rewritten.
    for (const f of [record, index]) linkSync(f, `${f}.kept`);
    const rewritten = (f: string) => statSync(f).ino !== statSync(`${f}.kept`).ino;
    await svc.pullImage({ image: { image } });
    expect([rewritten(record), rewritten(index)]).toEqual([false, false]);
    // Removed meanwhile: the pull writes the record and the tag again.
    await svc.removeImage({ image: { image } });
    await svc.pullImage({ image: { image } });
    expect(tags()).toEqual({ [image]: imageRef });
    expect([rewritten(record), rewritten(index)]).toEqual([true, true]);
    expect((await svc.imageStatus({ image: { image } })).image?.id).toBe(imageRef);
  });
});
