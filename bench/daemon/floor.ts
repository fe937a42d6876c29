// The floor: each pod's work with no daemon, done by the Go client's `floor` mode (netns made
// in-process, CNI ADD of loopback + the rig's bridge/portmap conflist, `runtime run -d` of a
// pause and a busybox container on overlays of the same rootfs the rig images hold). Here: the
// rootfs, the network and runtime roots it uses, and a cleanup that leaves nothing behind.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { populateBusyboxRootfs } from '../../test/rig/busybox-rootfs.js';
import { CNI_BIN_DIR, writeBridgeConflist, type CniNetwork } from '../../test/rig/cni-conf.js';
import { deleteLink, unmountUnder } from '../../test/rig/host-cleanup.js';
import { compilePause } from '../../test/rig/pause-binary.js';
import { run } from '../../test/rig/proc.js';
import { goClient, type FloorOutput } from './go-client.js';
import { placeChildTreesApart } from '../../src/runtime/store/top-directory.js';

export interface Floor {
  /** N pods up at once (timed), then down at once (timed apart); `noPause`: the container joins the netns itself. */
  run(n: number, runtime: string, tag: string, opts?: FloorRunOptions): Promise<FloorOutput>;
  /** The Go client's argv for one floor run (for tracing it), once prepare() made its dirs. */
  args(n: number, runtime: string, tag: string, opts?: FloorRunOptions): string[];
  prepare(runtime: string, tag: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** noPause: no pause container, as a pod that shares no PID namespace runs on isulats. */
export interface FloorRunOptions { noPause?: boolean }

export async function prepareFloor(dir: string): Promise<Floor> {
  const rootfs = join(dir, 'busybox-rootfs');
  const pauseRootfs = join(dir, 'pause-rootfs');
  await mkdir(rootfs, { recursive: true });
  // The same placement on ext4 as the engine gives its per-object trees (store/top-directory.ts):
  // the floor's per-pod bundles, overlays and runtime state go to block groups of their own, so
  // the floor stays the cheapest way to do the work on this file system.
  placeChildTreesApart(dir);
  await populateBusyboxRootfs(rootfs);
  await mkdir(pauseRootfs);
  await compilePause(join(pauseRootfs, 'pause'));
  await mkdir(join(dir, 'net.d'));
  await mkdir(join(dir, 'leases'));
  const network: CniNetwork = await writeBridgeConflist(join(dir, 'net.d'), join(dir, 'leases'));
  // One runtime state dir per runtime binary, made on first use.
  const roots = new Map<string, string>();
  const rootOf = (runtime: string) => join(dir, `root${runtime.replace(/\W/g, '_')}`);
  const args = (n: number, runtime: string, tag: string, opts: FloorRunOptions = {}) => ['floor', ...(opts.noPause ? ['-no-pause'] : []), '-n', String(n), '-name', `fl${tag}`, '-runtime', runtime,
    '-runtime-root', rootOf(runtime), '-dir', join(dir, `work-${tag}`), '-conflist', network.confPath,
    '-cni-bin', CNI_BIN_DIR, '-pause-rootfs', pauseRootfs, '-rootfs', rootfs];
  const prepare = async (runtime: string, tag: string): Promise<void> => {
    if (!roots.has(runtime)) {
      roots.set(runtime, rootOf(runtime));
      await mkdir(rootOf(runtime));
      placeChildTreesApart(rootOf(runtime));
    }
    // The Go client makes each pod's bundles under work-TAG/bundles/NAME.
    await mkdir(join(dir, `work-${tag}`, 'bundles'), { recursive: true });
    placeChildTreesApart(join(dir, `work-${tag}`));
    placeChildTreesApart(join(dir, `work-${tag}`, 'bundles'));
  };
  return {
    args,
    prepare,
    async run(n, runtime, tag, opts) {
      await prepare(runtime, tag);
      return goClient<FloorOutput>(args(n, runtime, tag, opts));
    },
    async cleanup() {
      for (const [runtime, r] of roots) {
        const ids = (await run(runtime, ['--root', r, 'list', '-q'], { check: false })).stdout.split('\n').filter(Boolean);
        for (const id of ids) await run(runtime, ['--root', r, 'delete', '-f', id], { check: false });
      }
      await unmountUnder(dir);
      await deleteLink(network.bridge);
    },
  };
}
