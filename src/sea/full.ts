// The single executable's full CLI (scripts/build-sea.mjs): a bundle carried as an asset, which
// src/sea/main.ts compiles and runs when the fast path does not take the call. The files a
// checkout or a package has beside the bundle (the native addon, the pause, pinns and ttyexec
// helpers, the protocol descriptors, package.json) travel as the executable's assets; they are
// written once per content into a private directory, which the bundled CLI and daemon then use
// as their install root.
import { getAsset, isSea } from 'node:sea';
import { extractAssets, pickUnpackBase, unpackCandidates, type SeaManifest } from './extract.js';
import { INSTALL_ROOT_VARIABLE } from '../util/repo-root.js';

export async function main(argv: string[]): Promise<void> {
  try {
    if (!isSea()) throw new Error('this bundle runs only as the single executable (scripts/build-sea.mjs)');
    const manifest = JSON.parse(getAsset('sea-manifest.json', 'utf8')) as SeaManifest;
    const root = extractAssets(manifest, (key) => Buffer.from(getAsset(key)), pickUnpackBase(unpackCandidates()));
    process.env[INSTALL_ROOT_VARIABLE] = root;
    process.env.ISULATS_NATIVE = `${root}/build/Release/isulats.node`;
    // Node's flags cannot be given to a single executable, so the daemon does not re-execute
    // itself under its own (see process-tuning.ts): it runs with Node's defaults.
    process.env.ISULATS_DAEMON_REEXEC ??= '0';
    const cli = await import('../cli/main.js');
    await cli.main(argv);
  } catch (err) {
    process.stderr.write(`isulats: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
