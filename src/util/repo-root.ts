// The isulats install directory (where package.json, assets/ and build/ live),
// found by walking up from this module: the same answer from src/ in tests and
// from dist/ in the bundle.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

/** Set by the single executable (src/sea/main.ts) to the private directory its files were written to. */
export const INSTALL_ROOT_VARIABLE = 'ISULATS_INSTALL_ROOT';

export function repoRoot(): string {
  if (cached) return cached;
  const given = process.env[INSTALL_ROOT_VARIABLE];
  if (given) return (cached = given);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  cached = dir;
  return dir;
}

export function repoPath(...parts: string[]): string {
  return join(repoRoot(), ...parts);
}
