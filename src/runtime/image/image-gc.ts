// Garbage collection: blobs and layer snapshots that no image record (and no
// container snapshot) references are removed. Runs under the exclusive gc
// lock, so no pull, build or load is half-way through adding content.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readJson } from '../store/atomic-file.js';
import type { ImageContext } from './image-context.js';

export interface GcResult {
  blobsRemoved: string[];
  snapshotsRemoved: string[];
}

export async function collectGarbage(ctx: ImageContext, containerSnapshotDir: string, timeoutMs?: number): Promise<GcResult> {
  return ctx.collecting(async () => {
    const blobs = new Set<string>();
    const chains = new Set<string>();
    for (const r of await ctx.images.list()) {
      for (const d of [r.targetDigest, r.manifestDigest, r.indexDigest, r.config.digest, ...r.layers.map((l) => l.digest)]) if (d) blobs.add(d);
      for (const c of r.chainIds) chains.add(c);
    }
    // Container snapshots keep their lower layers alive even if their image record went away.
    for (const name of await readdir(containerSnapshotDir).catch(() => [] as string[])) {
      const meta = await readJson<{ chainIds?: string[] }>(join(containerSnapshotDir, name, 'snapshot.json')).catch(() => undefined);
      for (const c of meta?.chainIds ?? []) chains.add(c);
    }
    const result: GcResult = {
      blobsRemoved: (await ctx.blobs.list()).filter((d) => !blobs.has(d)),
      snapshotsRemoved: (await ctx.layers.list()).filter((c) => !chains.has(c)),
    };
    // In batches: an image of 10,000 layers was 10,000 locked renames and as many `rm` processes.
    await ctx.blobs.deleteMany(result.blobsRemoved);
    await ctx.layers.removeMany(result.snapshotsRemoved);
    return result;
  }, timeoutMs);
}
