// npm's prepack step: a tarball carries the build (bundles, addon, helper binaries), so refuse to
// pack a checkout that has none, with one line saying what to run. Builds nothing itself.
import { existsSync } from 'node:fs';
import { SHIPPED_HELPERS } from './lib/shipped-helpers.mjs';

const needed = [
  'dist/isulats.cjs', 'dist/isulats-fast.cjs', 'dist/isulats-daemon.cjs', 'dist/nri-sdk.js', 'dist/descriptors', 'dist/types/nri/sdk/index.d.ts',
  ...SHIPPED_HELPERS,
];
const missing = needed.filter((f) => !existsSync(f));
if (missing.length > 0) {
  process.stderr.write(`isulats: cannot pack without the build (missing ${missing.join(', ')}): run npm run build first\n`);
  process.exit(1);
}
