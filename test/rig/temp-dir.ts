import { mkdtemp, rm } from 'node:fs/promises';

/** Short temp dir under /tmp (`/tmp/ist-XXXXXX`) so unix socket paths stay far below 108 bytes. */
export function makeTempDir(prefix = 'ist-'): Promise<string> {
  return mkdtemp(`/tmp/${prefix}`);
}

/** Removes a dir made by makeTempDir; refuses anything outside /tmp as a guard against bad input. */
export async function removeTempDir(dir: string): Promise<void> {
  if (!dir.startsWith('/tmp/') || dir.includes('..')) throw new Error(`refusing to remove ${dir}`);
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
