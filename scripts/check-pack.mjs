// npm's prepack step: a tarball carries the build (bundles, addon, helper binaries), so refuse to
// pack a checkout that has none, with one line saying what to run. Builds nothing itself.
import { existsSync } from 'node:fs';

const needed = [
  'dist/isulats.cjs', 'dist/isulats-fast.cjs', 'dist/isulats-daemon.cjs', 'dist/nri-sdk.js', 'dist/descriptors', 'dist/types/nri/sdk/index.d.ts',
  'build/Release/isulats.node', 'build/pause/pause', 'build/pinns/pinns', 'build/ttyexec/ttyexec',
];
const missing = needed.filter((f) => !existsSync(f));
if (missing.length > 0) {
  process.stderr.write(`isulats: cannot pack without the build (missing ${missing.join(', ')}): run npm run build first\n`);
  process.exit(1);
}
