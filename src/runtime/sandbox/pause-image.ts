// Makes sure the pause image exists. The default (isulats/pause:3.9) is made
// locally at first need from the pause binary `npm run build` compiles
// (build/pause/pause), so offline hosts can run pods and need no compiler;
// any other configured image is pulled at first need, as containerd pulls its
// sandbox image.
import { copyFile, mkdtemp, mkdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedPrecondition, isKind } from '../errors.js';
import type { EngineContext } from '../engine-context.js';
import { DEFAULT_PAUSE_IMAGE } from '../config/engine-config.js';
import { withFileLock } from '../store/lock.js';
import { repoPath } from '../../util/repo-root.js';

export const PAUSE_BINARY = repoPath('build', 'pause', 'pause');

export async function ensurePauseImage(ctx: EngineContext): Promise<string> {
  const ref = ctx.pauseImage;
  try {
    return (await ctx.images.resolveImage(ref)).id;
  } catch (error) {
    if (!isKind(error, 'not-found')) throw error;
    if (ref !== DEFAULT_PAUSE_IMAGE) return pullPauseImage(ctx, ref);
  }
  const binary = ctx.options.pauseBinaryPath ?? PAUSE_BINARY;
  if (!existsSync(binary)) throw failedPrecondition(`pause binary ${binary} not found: run \`npm run build\` in the isulats install`);
  return withFileLock(join(ctx.paths.root, 'locks', 'pause-image.lock'), async () => {
    const again = await ctx.images.resolveImage(ref).catch(() => undefined);
    if (again) return again.id;
    const dir = await mkdtemp(join(tmpdir(), 'isulats-pause-'));
    try {
      await mkdir(join(dir, 'rootfs'));
      await copyFile(binary, join(dir, 'rootfs', 'pause'));
      return await ctx.images.buildFromRootfs(join(dir, 'rootfs'), ref, { Entrypoint: ['/pause'], created: '2024-01-01T00:00:00Z' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, { timeoutMs: 180_000 });
}

async function pullPauseImage(ctx: EngineContext, ref: string): Promise<string> {
  try {
    await ctx.images.pullImage({ image: { image: ref } });
    return (await ctx.images.resolveImage(ref)).id;
  } catch (error) {
    throw failedPrecondition(`pause image "${ref}" is not here and could not be pulled: ${(error as Error).message}`);
  }
}
