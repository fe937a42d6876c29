// Writes the single executable's assets into a private directory, once per content: the
// directory is named after the manifest's hash, made under a parent only this user can
// write (checked, not assumed: /tmp is shared), filled in a temporary sibling and renamed
// into place whole, so a process never sees half of it and two starting at once agree.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SeaManifest {
  /** sha256 of every asset's key, mode and content, hex. */
  hash: string;
  /** Asset key (a path under the install root) → file mode. */
  files: Record<string, number>;
}

/**
 * Where the per-user parent lives: $XDG_RUNTIME_DIR, /run/isulats for root (not aged out by
 * systemd-tmpfiles like /tmp: a daemon runs pinns from there for months), else the temp dir.
 */
export function privateBase(env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): string {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'isulats-sea');
  if (uid === 0) return '/run/isulats/sea';
  return join(tmpdir(), `isulats-sea-${uid}`);
}

/** Makes `base` (mode 0700) or checks the one there: a real directory of ours that nobody else may write. */
export function ensurePrivateDir(base: string, uid = process.getuid?.() ?? 0): void {
  mkdirSync(dirname(base), { recursive: true, mode: 0o755 });
  try {
    mkdirSync(base, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const st = lstatSync(base);
  if (!st.isDirectory() || st.isSymbolicLink()) throw new Error(`${base} is not a directory: refusing to put the executable's files there`);
  if (st.uid !== uid) throw new Error(`${base} belongs to uid ${st.uid}, not ${uid}: refusing to put the executable's files there`);
  if ((st.mode & 0o077) !== 0) throw new Error(`${base} is open to other users (mode ${(st.mode & 0o777).toString(8)}): refusing to put the executable's files there`);
}

/** The install root holding every asset of `manifest`; written now unless a previous start did. */
export function extractAssets(manifest: SeaManifest, read: (key: string) => Buffer, base: string): string {
  if (!/^[0-9a-f]{64}$/.test(manifest.hash)) throw new Error('corrupt executable: bad asset manifest');
  ensurePrivateDir(base);
  const root = join(base, manifest.hash.slice(0, 16));
  if (existsSync(root)) return root;
  const tmp = mkdtempSync(join(base, '.new-'));
  try {
    for (const [key, mode] of Object.entries(manifest.files)) {
      if (key.startsWith('/') || key.split('/').includes('..')) throw new Error(`corrupt executable: asset path ${key}`);
      const file = join(tmp, key);
      mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
      writeFileSync(file, read(key), { mode });
      chmodSync(file, mode); // the umask must not take the execute bits of the helpers
    }
    chmodSync(tmp, 0o755);
    renameSync(tmp, root);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    // Another start put the same content in place first.
    if (existsSync(root)) return root;
    throw err;
  }
  return root;
}
