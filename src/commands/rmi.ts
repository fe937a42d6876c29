import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { formatError } from '../cli/errors.js';
import type { Image } from '../api/cri.js';

export default defineCommand({
  summary: 'Remove one or more images',
  usage: 'rmi IMAGE-ID [IMAGE-ID...]',
  strict: false,
  flags: {
    all: Flags.boolean({ char: 'a', summary: 'Remove all images' }),
    // crictl gives --prune the short alias -q.
    prune: Flags.boolean({ char: 'q', summary: 'Remove all unused images' }),
  },
  async run(ctx) {
    const all: boolean = ctx.flags.all;
    const prune: boolean = ctx.flags.prune;
    if (ctx.argv.length === 0 && !all && !prune) throw new Error('image ID cannot be empty (usage: rmi IMAGE-ID [IMAGE-ID...], or --all, or --prune)');
    const backend = await ctx.backend();
    const images = all || prune ? (await backend.listImages({})).images : [];
    const inUse: string[] = [];
    if (prune) {
      const { containers } = await backend.listContainers({});
      for (const c of containers) {
        const ref = c.image?.image || c.imageRef;
        try {
          const st = await backend.imageStatus({ image: { image: ref } });
          if (st.image) inUse.push(st.image.id);
        } catch (err) {
          ctx.stderr.write(`isulats: image status request for "${ref}" failed: ${formatError(err)}\n`);
        }
      }
    }
    const ids = imagesToRemove(ctx.argv, images, inUse, { all, prune });
    // Each failure gets one line; the last becomes the command's error (exit 1).
    const failures: string[] = [];
    const fail = (msg: string) => {
      if (failures.length) ctx.stderr.write(`isulats: ${failures[failures.length - 1]}\n`);
      failures.push(msg);
    };
    for (const id of ids) {
      let status;
      try {
        status = await backend.imageStatus({ image: { image: id } });
      } catch (err) {
        fail(`image status request for "${id}" failed: ${formatError(err)}`);
        continue;
      }
      if (!status.image) {
        fail(`no such image ${id}`);
        continue;
      }
      try {
        await backend.removeImage({ image: { image: id } });
      } catch (err) {
        // Races with other removals are expected while pruning.
        if (!prune) {
          fail(`error of removing image "${id}": ${formatError(err)}`);
        }
        continue;
      }
      const refs = status.image.repoTags.length ? status.image.repoTags : status.image.repoDigests;
      ctx.print(refs.map((r) => `Deleted: ${r}\n`).join(''));
    }
    if (failures.length) throw new Error(failures[failures.length - 1]);
  },
});

/**
 * What rmi removes, in order: the named images, then with --all every image,
 * with --prune every image no container uses. Pinned images (the sandbox
 * image) survive a prune, as in later crictl releases.
 */
export function imagesToRemove(named: string[], images: Pick<Image, 'id' | 'pinned'>[], inUse: string[], opts: { all: boolean; prune: boolean }): string[] {
  const ids = new Map<string, boolean>();
  for (const id of named) ids.set(id, true);
  if (opts.all || opts.prune) for (const img of images) if (opts.all || !img.pinned) ids.set(img.id, true);
  if (opts.prune) for (const id of inUse) ids.set(id, false);
  return [...ids].filter(([, remove]) => remove).map(([id]) => id);
}
