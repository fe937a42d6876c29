// A layer whose tar stream stops right after its last file's content (no padding, no
// end-of-archive blocks), as some Go-written tools produce: containerd and Docker read it through
// Go's archive/tar, and so must we. Built byte by byte, pushed with skopeo to the rig's registry.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { openCriClient, type RawCriClient } from '../rig/cri-client.js';
import { pushLayout } from '../rig/images.js';
import { writeOciLayout } from '../rig/oci-layout-write.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { tarWithOffsets } from './image-fixtures.js';

let dir: string;
let cri: RawCriClient;
const ref = `${rigEnv().ISULATS_TEST_REGISTRY}/isulats-test/go-tar-ends-${randomUUID()}:v1`;
const MOTD = 'welcome\n'.repeat(100);

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await makeTempDir('ist-tarend-');
  const { tar, lastContentEnd } = await tarWithOffsets([
    { name: 'etc', type: 'directory', mode: 0o755, mtime: 1_700_000_000 },
    { name: 'etc/os-release', type: 'file', data: 'ID=test\n', mtime: 1_700_000_000 },
    { name: 'etc/motd', type: 'file', data: MOTD, mtime: 1_700_000_000 },
  ]);
  const cut = tar.subarray(0, lastContentEnd);
  expect(cut.length % 512).not.toBe(0);
  const blob = gzipSync(cut);
  await writeOciLayout(join(dir, 'layout'), {
    tag: 'v1',
    layers: [{ blob, diffId: sha256Digest(cut), mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip' }],
  });
  await pushLayout(`${join(dir, 'layout')}:v1`, ref);
  cri = openCriClient(rigEnv().ISULATS_TEST_CRI_ENDPOINT);
});

afterAll(async () => {
  await cri?.image('RemoveImage', { image: { image: ref } }).catch(() => undefined);
  cri?.close();
  if (dir) await removeTempDir(dir);
});

describe('a layer tar without its last padding and end blocks', () => {
  it('pulls and unpacks completely in the engine', async () => {
    const images = await ImageService.open({ root: join(dir, 'root'), state: join(dir, 'state'), authFile: join(dir, 'auths.json') });
    await images.pullImage({ image: { image: ref } });
    const resolved = await images.resolveImage(ref);
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'etc/motd'), 'utf8')).toBe(MOTD);
    expect(readFileSync(join(resolved.snapshotDirs[0]!, 'etc/os-release'), 'utf8')).toBe('ID=test\n');
  });

  it(`pulls through the rig's CRI peer (${rigEnv().ISULATS_TEST_CRI_PEER})`, async () => {
    const pulled = await cri.image('PullImage', { image: { image: ref } }, 120_000);
    expect(pulled.imageRef).toMatch(/^sha256:/);
  });
});
