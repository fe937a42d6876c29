// Who may reach the engine's root and state trees. Layer snapshots hold image
// files as they are (setuid-root binaries included) and container dirs hold
// running containers' root filesystems, so another host user must not reach
// either: every directory under root and state is 0700, the tops themselves
// 0711 (the daemon socket lives in the state dir). containerd does the same
// since CVE-2021-41103 (plugin dirs and bundles 0700).
// Containers running as non-root users are unaffected: runc mounts the rootfs
// and its bind mounts as root before pivot_root, and a container's `/` takes
// its mode from the overlay's upperdir, not from the host path leading to it.
import { mkdirSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Directories that hold (or lead to) layer, container or engine data. */
export const PRIVATE_DIR_MODE = 0o700;
/** The root and state dirs themselves: traversable, not listable. */
export const TOP_DIR_MODE = 0o711;

/**
 * mkdir -p with every directory it creates private (existing ones keep their mode). On the calling
 * thread: a metadata call, cheaper than a thread-pool round trip.
 */
export async function mkdirPrivate(path: string): Promise<void> {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Takes group and other access away from every entry directly under `tops`
 * (directories and regular files; sockets and symlinks keep theirs), so a root
 * made with looser modes is closed before anything else reads it. Entries
 * below need no walk: a 0700 directory makes all it contains unreachable.
 * One top lying directly inside another (state under root) stays traversable, and `keep`
 * (the user-namespace share dir, 0711 by design) is left as it is.
 */
export async function tightenEngineTree(tops: string[], keep: string[] = []): Promise<void> {
  const topSet = new Set(tops.map((t) => resolve(t)));
  const kept = new Set(keep.map((k) => resolve(k)));
  for (const top of topSet) {
    for (const name of await readdir(top).catch(() => [] as string[])) {
      const path = join(top, name);
      if (kept.has(path)) continue;
      const st = await lstat(path).catch(() => undefined);
      if (!st || !(st.isDirectory() || st.isFile())) continue;
      const mode = st.mode & 0o7777;
      const wanted = topSet.has(path) ? mode & ~0o066 : mode & ~0o077;
      if (wanted !== mode) await chmod(path, wanted);
    }
  }
}
