import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/** What a plugin bundle is made from: an example of examples/nri, or TypeScript source importing from the repo. */
export type PluginSource = { example: string } | { source: string };

/**
 * Bundles one plugin into `<outDir>/<name>.mjs`, a runnable single file, with the protocol
 * descriptors beside it (where the bundle looks for them). Returns its path.
 */
export async function bundlePlugin(outDir: string, name: string, from: PluginSource): Promise<string> {
  cpSync(join(ROOT, 'src/api/descriptors'), join(outDir, 'descriptors'), { recursive: true });
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent',
    banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
    ...('example' in from
      ? { entryPoints: [join(ROOT, 'examples/nri', `${from.example}.ts`)] }
      : { stdin: { contents: from.source, resolveDir: ROOT, sourcefile: `${name}.ts`, loader: 'ts' as const } }),
    outfile,
  });
  return outfile;
}

/** Bundles examples/nri/<name>.ts into `<outDir>/<name>.mjs` for each name. Returns the paths by name. */
export async function bundleExamplePlugins(outDir: string, names: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await bundlePlugin(outDir, name, { example: name });
  return out;
}
