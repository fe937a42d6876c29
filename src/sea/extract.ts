// Writes the single executable's assets into a private directory, once per content: the
// directory is named after the manifest's hash, made under a parent only this user can
// write (checked, not assumed: /tmp is shared), filled in a temporary sibling and renamed
// into place whole, so a process never sees half of it and two starting at once agree.
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onNoexecMount } from '../util/mount-of.js';

export interface SeaManifest {
  /** sha256 of every asset's key, mode and content, hex. */
  hash: string;
  /** Asset key (a path under the install root) → file mode. */
  files: Record<string, number>;
}

/** The variable naming the unpack dir outright (e.g. on a node whose /var/lib is noexec too). */
export const SEA_DIR_VARIABLE = 'ISULATS_SEA_DIR';

/**
 * Where the per-user parent may live, best first: $ISULATS_SEA_DIR alone when set; else
 * $XDG_RUNTIME_DIR, then /var/lib/isulats/sea for root (not /run: it is mounted noexec on
 * systemd nodes, and the addon cannot be mapped from there; not /tmp: systemd-tmpfiles ages it out
 * while a daemon runs pinns from it for months), else the temp dir and ~/.cache.
 */
export function unpackCandidates(env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? 0): string[] {
  if (env[SEA_DIR_VARIABLE]) return [env[SEA_DIR_VARIABLE]];
  const out: string[] = [];
  if (env.XDG_RUNTIME_DIR) out.push(join(env.XDG_RUNTIME_DIR, 'isulats-sea'));
  if (uid === 0) out.push('/var/lib/isulats/sea');
  else {
    out.push(join(tmpdir(), `isulats-sea-${uid}`));
    if (env.HOME) out.push(join(env.HOME, '.cache', 'isulats-sea'));
  }
  return out;
}

/** The first candidate whose files may run (its mount is not noexec); none: one line saying what to set. */
export function pickUnpackBase(candidates: string[], noexec: (dir: string) => boolean = (d) => onNoexecMount(d)): string {
  const fit = candidates.find((dir) => !noexec(dir));
  if (fit) return fit;
  const named = candidates.length === 1 ? candidates[0] : candidates.join(', ');
  throw new Error(`cannot unpack: ${named} ${candidates.length === 1 ? 'is' : 'are'} on a noexec mount; set ${SEA_DIR_VARIABLE} to a directory where files may run`);
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
