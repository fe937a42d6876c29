// Teardown shared by the benches that run isulats daemon next to a rig containerd and registry:
// each part is stopped even when another fails (failures are printed, not thrown), then the dir.
import type { Containerd } from '../test/rig/containerd.js';
import type { Registry } from '../test/rig/registry.js';
import { removeTempDir } from '../test/rig/temp-dir.js';
import type { IsulatsDaemon } from '../test/rig/isulats-daemon.js';

export interface BenchRig {
  daemons?: Array<IsulatsDaemon | undefined>;
  containerd?: Containerd;
  registry?: Registry;
  /** The bench's own temp dir (makeTempDir). */
  dir: string;
}

export async function teardownBenchRig(rig: BenchRig): Promise<void> {
  for (const d of rig.daemons ?? []) await d?.cleanup().catch((e: Error) => console.error(`daemon cleanup: ${e.message}`));
  await rig.containerd?.stop().catch((e: Error) => console.error(`containerd cleanup: ${e.message}`));
  await rig.registry?.stop().catch((e: Error) => console.error(`registry cleanup: ${e.message}`));
  await removeTempDir(rig.dir);
}

/** Runs a bench's main, printing its failure as one line and exiting non-zero. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: Error) => {
    console.error(`bench: ${error.message}`);
    process.exitCode = 1;
  });
}
