import { defineConfig } from 'vitest/config';

// The node-shaped guest suite (test/guest/): one qemu guest per run, so one file at a time and
// long bounds (a TCG guest is several times slower than the host). Kept out of vitest.config.ts
// so `npx vitest run` never boots a VM by accident; scripts/test.sh runs it as its own step.
export default defineConfig({
  test: {
    name: 'guest',
    include: ['test/guest/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
    teardownTimeout: 180_000,
  },
});
