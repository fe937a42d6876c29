import { join } from 'node:path';
import { run } from './proc.js';

export interface ImageRecipe {
  /** Tags the layout will hold; the first one is built, the others point at the same manifest. */
  tags: string[];
  /** Writes the image's files into the unpacked rootfs (running as root, so ownership is kept). */
  populate(rootfs: string): Promise<void>;
  cmd?: string[];
  entrypoint?: string[];
  env?: string[];
  workingDir?: string;
}

const UMOCI = 'umoci';

/** Builds a single-layer OCI image layout at `layout` with umoci (init, new, unpack, repack, config). */
export async function buildOciLayout(layout: string, scratch: string, recipe: ImageRecipe): Promise<void> {
  const [first, ...others] = recipe.tags;
  if (!first) throw new Error('an image recipe needs at least one tag');
  const image = `${layout}:${first}`;
  const bundle = join(scratch, 'bundle');
  await run(UMOCI, ['init', '--layout', layout]);
  await run(UMOCI, ['new', '--image', image]);
  await run(UMOCI, ['unpack', '--image', image, bundle]);
  await recipe.populate(join(bundle, 'rootfs'));
  await run(UMOCI, ['repack', '--image', image, bundle]);
  const config = ['config', '--image', image, '--author', 'isulats-test-rig'];
  for (const env of recipe.env ?? []) config.push('--config.env', env);
  for (const arg of recipe.cmd ?? []) config.push('--config.cmd', arg);
  for (const arg of recipe.entrypoint ?? []) config.push('--config.entrypoint', arg);
  if (recipe.workingDir) config.push('--config.workingdir', recipe.workingDir);
  await run(UMOCI, config);
  for (const tag of others) await run(UMOCI, ['tag', '--image', image, tag]);
  await run(UMOCI, ['gc', '--layout', layout]);
}
