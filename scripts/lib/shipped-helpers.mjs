// The build's outputs every shipped form of isulats carries (the npm package's `files`, the single
// executable's assets, the prepack check): the native addon and each helper scripts/build-pause.mjs
// compiles. test/unit/shipped-helpers.test.ts checks this list, package.json and build/*/* agree.
export const SHIPPED_HELPERS = [
  'build/Release/isulats.node',
  'build/pause/pause',
  'build/pinns/pinns',
  'build/ttyexec/ttyexec',
  'build/crun-hybrid/crun-hybrid',
  'build/execsync/execsync',
];
