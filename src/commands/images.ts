import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import type { Image } from '../api/cri.js';
import { table } from '../cli/output/tabwriter.js';
import { humanSize } from '../cli/output/units.js';

const NONE = '<none>';
const TRUNCATED_ID_LEN = 13;

export default defineCommand({
  summary: 'List images',
  usage: 'images [REPOSITORY[:TAG]]',
  aliases: ['image', 'img'],
  flags: {
    verbose: Flags.boolean({ char: 'v', summary: 'Show verbose info for images' }),
    quiet: Flags.boolean({ char: 'q', summary: 'Only show image IDs' }),
    filter: Flags.string({
      char: 'f',
      multiple: true, multipleNonGreedy: true,
      summary: 'Filter output based on provided conditions: dangling=(true|false), reference=/regexp/, before=<image>[:<tag>]|<id>|<image@digest>, since=... (may repeat)',
    }),
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'table'] as const, summary: 'Output format, One of: json|yaml|table' })(),
    digests: Flags.boolean({ summary: 'Show digests' }),
    'no-trunc': Flags.boolean({ summary: 'Show output without truncating the ID' }),
    pinned: Flags.boolean({ summary: 'Show whether the image is pinned or not' }),
  },
  args: {
    image: Args.string({ description: 'REPOSITORY[:TAG] to list', required: false }),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const res = await backend.listImages({ filter: ctx.args.image ? { image: { image: ctx.args.image } } : undefined });
    let images = sortImages(res.images);
    if (ctx.flags.filter?.length && images.length) images = filterImages(images, ctx.flags.filter);
    const output = ctx.flags.output;
    if (output === 'json' || output === 'yaml') {
      const { renderCrictl, protoOrdered } = await import('../cli/status-output.js');
      ctx.print(await renderCrictl(await protoOrdered('ListImagesResponse', { images }), output));
      return;
    }
    if (ctx.flags.quiet) {
      ctx.print(images.map((i) => `${i.id}\n`).join(''));
      return;
    }
    if (ctx.flags.verbose) {
      ctx.print(images.map(verboseImage).join(''));
      return;
    }
    ctx.print(imagesTable(images, { digests: ctx.flags.digests, noTrunc: ctx.flags['no-trunc'], pinned: ctx.flags.pinned }));
  },
});

/** crictl's imageByRef order: first tag, else first digest, else ID. */
export function sortImages(images: Image[]): Image[] {
  return [...images].sort((a, b) => {
    if (a.repoTags.length && b.repoTags.length) return cmp(a.repoTags[0], b.repoTags[0]);
    if (a.repoDigests.length && b.repoDigests.length) return cmp(a.repoDigests[0], b.repoDigests[0]);
    return cmp(a.id, b.id);
  });
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Image name and digest from the first repo digest ("<none>" when there is none). */
export function normalizeRepoDigest(repoDigests: string[]): [string, string] {
  if (repoDigests.length === 0) return [NONE, NONE];
  const pair = repoDigests[0].split('@');
  if (pair.length !== 2) return ['errorName', 'errorRepoDigest'];
  return [pair[0], pair[1]];
}

/** One [repository, tag] pair per tag; an untagged image shows its digest's name and <none>. */
export function normalizeRepoTagPairs(repoTags: string[], imageName: string): [string, string][] {
  if (repoTags.length === 0) return [[imageName, NONE]];
  return repoTags.map((repoTag) => {
    const idx = repoTag.lastIndexOf(':');
    if (idx < 0) return ['errorRepoTag', 'errorRepoTag'];
    const name = repoTag.slice(0, idx);
    return [name === NONE ? imageName : name, repoTag.slice(idx + 1)];
  });
}

export function truncateId(id: string, prefix: string): string {
  const s = id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return s.length > TRUNCATED_ID_LEN ? s.slice(0, TRUNCATED_ID_LEN) : s;
}

export function imagesTable(images: Image[], opts: { digests?: boolean; noTrunc?: boolean; pinned?: boolean }): string {
  const header = ['IMAGE', 'TAG'];
  if (opts.digests) header.push('DIGEST');
  header.push('IMAGE ID', 'SIZE');
  if (opts.pinned) header.push('PINNED');
  const rows: string[][] = [];
  for (const image of images) {
    const [imageName, repoDigest0] = normalizeRepoDigest(image.repoDigests);
    const size = humanSize(Number(image.size));
    const id = opts.noTrunc ? image.id : truncateId(image.id, 'sha256:');
    const repoDigest = opts.noTrunc ? repoDigest0 : truncateId(repoDigest0, 'sha256:');
    for (const [repo, tag] of normalizeRepoTagPairs(image.repoTags, imageName)) {
      const row = [repo, tag];
      if (opts.digests) row.push(repoDigest);
      row.push(id, size);
      if (opts.pinned) row.push(String(image.pinned));
      rows.push(row);
    }
  }
  return table(header, rows);
}

/** `images -v`: crictl's key: value blocks, one per image. */
export function verboseImage(image: Image): string {
  let s = `ID: ${image.id}\n`;
  for (const tag of image.repoTags) s += `RepoTags: ${tag}\n`;
  for (const digest of image.repoDigests) s += `RepoDigests: ${digest}\n`;
  if (image.size !== '0' && image.size) s += `Size: ${image.size}\n`;
  if (image.uid) s += `Uid: &Int64Value{Value:${image.uid.value},}\n`;
  if (image.username) s += `Username: ${image.username}\n`;
  if (image.pinned) s += `Pinned: ${image.pinned}\n`;
  return `${s}\n`;
}

/** The --filter conditions of later crictl releases (dangling, reference, before, since), applied in order. */
export function filterImages(images: Image[], filters: string[]): Image[] {
  let out = [...images];
  for (const f of filters) {
    const eq = f.indexOf('=');
    const key = eq < 0 ? f : f.slice(0, eq);
    const value = eq < 0 ? '' : f.slice(eq + 1);
    switch (key) {
      case 'before':
        out = beforeSince(value, [...out].reverse()).reverse();
        break;
      case 'since':
        out = beforeSince(value, out);
        break;
      case 'dangling':
        if (value !== 'true' && value !== 'false') throw new Error(`invalid filter "${f}": dangling takes true or false`);
        out = out.filter((i) => (value === 'true' ? i.repoTags.length === 0 : i.repoTags.length > 0));
        break;
      case 'reference': {
        let re: RegExp;
        try {
          re = new RegExp(value);
        } catch (err) {
          throw new Error(`invalid filter "${f}": ${(err as Error).message}`);
        }
        out = out.filter((i) => {
          const [name] = normalizeRepoDigest(i.repoDigests);
          const refs = [name, ...i.repoTags];
          return refs.some((r) => re.test(r) || r === value);
        });
        break;
      }
      default:
        throw new Error(`unknown filter flag: ${f}`);
    }
  }
  return out;
}

/** Images listed after the one that matches `value` (crictl's since; before runs it on the reversed list). */
function beforeSince(value: string, images: Image[]): Image[] {
  const matches = (img: Image): boolean => {
    if (value.includes('@')) return img.repoDigests.length > 0 && img.repoDigests[0].startsWith(value);
    if (value.includes(':')) {
      const [name] = normalizeRepoDigest(img.repoDigests);
      const refs = [normalizeRepoTagPairs(img.repoTags, name)[0].join(':'), ...img.repoTags];
      return refs.includes(value);
    }
    return img.id.startsWith(value) || img.id.startsWith(`sha256:${value}`);
  };
  const out: Image[] = [];
  for (const img of images) {
    if (matches(img)) break;
    out.push(img);
  }
  return out;
}
