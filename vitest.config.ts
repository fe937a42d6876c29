import { defineConfig } from 'vitest/config';

// Two projects: unit tests run in parallel and never touch the rig; integration and e2e tests share
// one real rig (registry + containerd, started by global setup only when such files are selected)
// and run one file at a time, since they share it and the host's network and mounts.
export default defineConfig({
  test: {
    // Rig teardown (stopping containerd, shims, mounts) must not be cut short.
    teardownTimeout: 120_000,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/rig/global-setup.ts'],
          setupFiles: ['test/rig/setup-env.ts'],
          fileParallelism: false,
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
