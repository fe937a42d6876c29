import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Bundles examples/nri/<name>.ts into `<outDir>/<name>.mjs` (one runnable file each, the protocol
 * descriptors beside them, where the bundles look for them). Returns the paths by name.
 */
export async function bundleExamplePlugins(outDir: string, names: readonly string[]): Promise<Record<string, string>> {
  cpSync(join(ROOT, 'src/api/descriptors'), join(outDir, 'descriptors'), { recursive: true });
  const out: Record<string, string> = {};
  for (const name of names) {
    out[name] = join(outDir, `${name}.mjs`);
    await build({
      bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'silent',
      banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
      entryPoints: [join(ROOT, 'examples/nri', `${name}.ts`)], outfile: out[name],
    });
  }
  return out;
}
