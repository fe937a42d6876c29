// Teardown shared by the benches that run isulats daemon next to a rig containerd and registry:
// each part is stopped even when another fails (failures are printed, not thrown), then the dir.
import type { Containerd } from '../test/rig/containerd.js';
import { pushRigImages, type PushedImages } from '../test/rig/images.js';
import { startRegistry, type Registry } from '../test/rig/registry.js';
import { makeTempDir, removeTempDir } from '../test/rig/temp-dir.js';
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

/** A bench's rig once its registry serves the rig images; daemons and containerd it starts join it. */
export interface OpenBenchRig extends BenchRig {
  daemons: IsulatsDaemon[];
  registry: Registry;
  images: PushedImages;
}

/** runBench with a temp dir, a registry and the rig images set up first and everything torn down after. */
export function runBenchWithRig(main: (rig: OpenBenchRig) => Promise<void>): void {
  runBench(async () => {
    const rig: Partial<OpenBenchRig> & BenchRig = { dir: await makeTempDir('ist-br-'), daemons: [] };
    try {
      rig.registry = await startRegistry();
      rig.images = await pushRigImages(rig.registry.host);
      await main(rig as OpenBenchRig);
    } finally {
      await teardownBenchRig(rig);
    }
  });
}
