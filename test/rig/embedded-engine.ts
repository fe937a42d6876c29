// The temp root, state dir, CNI network and busybox rootfs that tests driving the embedded
// engine through the CLI start from, and their removal (pods, mounts, bridge, dir).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { populateBusyboxRootfs } from './busybox-rootfs.js';
import { writeBridgeConflist, type CniNetwork } from './cni-conf.js';
import { deleteLink, unmountUnder } from './host-cleanup.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

export interface EmbeddedEngineDir {
  dir: string;
  net: CniNetwork;
  /** `--root DIR/root --state DIR/state`, to put before a CLI call's arguments. */
  base: string[];
  /** A busybox root file system at DIR/rootfs, for `isulats import`. */
  rootfs: string;
}

/** The environment that keeps a CLI call on this dir's engine: its CNI conf, no daemon, no endpoint. */
export function embeddedEnv(dir: string): Record<string, string> {
  return { ISULATS_CNI_CONF_DIR: join(dir, 'cni'), ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock'), ISULATS_KNOWN_ENDPOINTS: '' };
}

export async function prepareEmbeddedEngine(prefix: string): Promise<EmbeddedEngineDir> {
  const dir = await makeTempDir(prefix);
  await mkdir(join(dir, 'cni'), { recursive: true });
  const net = await writeBridgeConflist(join(dir, 'cni'), join(dir, 'leases'));
  const rootfs = join(dir, 'rootfs');
  await populateBusyboxRootfs(rootfs);
  return { dir, net, base: ['--root', join(dir, 'root'), '--state', join(dir, 'state')], rootfs };
}

/** Removes every pod through `removeAll` (the test's own CLI call), then mounts, bridge and dir. */
export async function removeEmbeddedEngine(e: Pick<EmbeddedEngineDir, 'dir' | 'net'> | undefined, removeAll: () => Promise<unknown>): Promise<void> {
  if (!e?.dir) return;
  await removeAll().catch(() => undefined);
  await unmountUnder(e.dir);
  await deleteLink(e.net?.bridge ?? '').catch(() => undefined);
  await removeTempDir(e.dir);
}
