// The start of the single executable (scripts/build-sea.mjs): Node's single executable
// application support runs this small script from inside a copy of the node binary. As
// bin/isulats does, it first tries the fast path (src/fast/), which needs none of the assets:
// a call it takes unpacks nothing and compiles nothing else. Otherwise it compiles the full
// CLI (src/sea/full.ts, carried as the asset FULL_ASSET) from the V8 code cache made at
// build time, and runs it.
import { getAsset } from 'node:sea';
import { Module, createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { fastThenFull } from '../fast/fast-cli.js';

/** The full CLI's bundle and its code cache, as build-sea.mjs names the assets. */
const FULL_ASSET = 'isulats-sea-full.cjs';
const FULL_CACHE_ASSET = 'isulats-sea-full.cjs.v8cache';

const argv = process.argv.slice(2);

function runFull(): void {
  let cachedData: Buffer | undefined;
  try {
    cachedData = Buffer.from(getAsset(FULL_CACHE_ASSET));
  } catch {
    // built without one: compiled from source
  }
  // The bundle sees the executable as its file, as a single executable's main script does.
  const file = process.execPath;
  const script = new Script(Module.wrap(getAsset(FULL_ASSET, 'utf8')), { filename: file, cachedData });
  const mod = { exports: {} as { main(argv: string[]): Promise<void> } };
  script.runInThisContext()(mod.exports, createRequire(file), mod, file, dirname(file));
  void mod.exports.main(argv);
}

fastThenFull(argv, runFull);
