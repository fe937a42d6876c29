import { createHash } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BUSYBOX_BIN, populateBusyboxRootfs } from './busybox-rootfs.js';
import { buildOciLayout } from './oci-layout.js';
import { compilePause, PAUSE_SOURCE } from './pause-binary.js';
import { run } from './proc.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** Bump when the recipes below change, so stale cached layouts are not reused. */
const RECIPE_VERSION = '1';
// Outlives runs on purpose (layouts take a second to build); ISULATS_RIG_CACHE moves it.
const CACHE_ROOT = process.env.ISULATS_RIG_CACHE ?? '/tmp/isulats-rig-cache';

export const BUSYBOX_REPO = 'library/busybox';
export const BUSYBOX_TAGS = ['latest', '1.35'];
export const PAUSE_REPO = 'pause';
export const PAUSE_TAG = '3.9';
const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface ImageLayouts {
  busybox: string;
  pause: string;
}

export interface PushedImages {
  /** `HOST/library/busybox:latest` */
  busybox: string;
  /** Every pushed busybox reference (latest and 1.35). */
  busyboxRefs: string[];
  /** `HOST/pause:3.9` */
  pause: string;
}

/** Returns OCI layouts for busybox and pause, built once per input hash and cached under /tmp. */
export async function rigImageLayouts(): Promise<ImageLayouts> {
  const key = await inputHash();
  const dir = join(CACHE_ROOT, key);
  const layouts = { busybox: join(dir, 'busybox'), pause: join(dir, 'pause') };
  if (await exists(join(dir, 'complete'))) return layouts;
  await mkdir(CACHE_ROOT, { recursive: true });
  const scratch = await makeTempDir('ist-img-');
  try {
    const staged = join(scratch, 'out');
    await mkdir(staged);
    await buildOciLayout(join(staged, 'busybox'), await subdir(scratch, 'bb'), {
      tags: BUSYBOX_TAGS,
      populate: populateBusyboxRootfs,
      cmd: ['sh'],
      env: [PATH_ENV],
    });
    await buildOciLayout(join(staged, 'pause'), await subdir(scratch, 'pause'), {
      tags: [PAUSE_TAG],
      populate: async (rootfs) => {
        await compilePause(join(rootfs, 'pause'));
        await chmod(join(rootfs, 'pause'), 0o755);
      },
      entrypoint: ['/pause'],
      env: [PATH_ENV],
    });
    await run('touch', [join(staged, 'complete')]);
    // A concurrent run may have won the race; either copy is complete, so keep theirs.
    await rename(staged, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(join(dir, 'complete')))) throw error;
    });
  } finally {
    await removeTempDir(scratch);
  }
  return layouts;
}

export interface PushOptions {
  /** `user:password` for a registry with basic auth. */
  creds?: string;
}

/** Pushes busybox (latest, 1.35) and pause:3.9 from the cached layouts to a plain-http registry. */
export async function pushRigImages(registryHost: string, opts: PushOptions = {}): Promise<PushedImages> {
  const layouts = await rigImageLayouts();
  const busyboxRefs: string[] = [];
  for (const tag of BUSYBOX_TAGS) {
    const ref = `${registryHost}/${BUSYBOX_REPO}:${tag}`;
    await pushLayout(`${layouts.busybox}:${tag}`, ref, opts);
    busyboxRefs.push(ref);
  }
  const pause = `${registryHost}/${PAUSE_REPO}:${PAUSE_TAG}`;
  await pushLayout(`${layouts.pause}:${PAUSE_TAG}`, pause, opts);
  return { busybox: busyboxRefs[0]!, busyboxRefs, pause };
}

/** Copies one tag of an OCI layout to `ref` in a registry over plain http. */
export async function pushLayout(source: string, ref: string, opts: PushOptions = {}): Promise<void> {
  const args = ['--insecure-policy', 'copy', '--quiet', '--dest-tls-verify=false'];
  if (opts.creds) args.push('--dest-creds', opts.creds);
  args.push(`oci:${source}`, `docker://${ref}`);
  await run('skopeo', args, { timeoutMs: 120_000 });
}

async function inputHash(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(RECIPE_VERSION);
  hash.update(await readFile(BUSYBOX_BIN));
  hash.update(await readFile(PAUSE_SOURCE));
  return hash.digest('hex').slice(0, 16);
}

/** Makes `parent/name` (which must not exist) and returns its path. */
export async function subdir(parent: string, name: string): Promise<string> {
  const dir = join(parent, name);
  await mkdir(dir);
  return dir;
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
