// Both shipped forms carry every helper the build makes: the npm package (package.json `files`)
// and the single executable (its asset list, scripts/lib/shipped-helpers.mjs, which
// scripts/build-sea.mjs and the prepack check use). A helper missing from either runs from
// nowhere on an installed node (ExecSync fell back to `runc exec` when execsync was left out).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(import.meta.dirname, '..', '..');

/** build/*\/* as the build leaves it; from the sources when nothing is built (each assets/<n>/<n>.c becomes build/<n>/<n>). */
function builtHelpers(): string[] {
  const fromSources = ['build/Release/isulats.node', ...readdirSync(join(repo, 'assets')).filter((n) => existsSync(join(repo, 'assets', n, `${n}.c`))).map((n) => `build/${n}/${n}`)];
  const build = join(repo, 'build');
  if (!existsSync(build)) return fromSources;
  const built = readdirSync(build, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => readdirSync(join(build, d.name), { withFileTypes: true }).filter((f) => f.isFile()).map((f) => `build/${d.name}/${f.name}`));
  return [...new Set([...built, ...fromSources])].sort();
}

describe('shipped helpers', () => {
  it('lists every helper of build/*/* in package.json files and in the single executable assets', async () => {
    const helpers = builtHelpers();
    expect(helpers).toContain('build/execsync/execsync');
    const files = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { files: string[] }).files;
    const packaged = (f: string) => files.some((e) => e === f || (e.endsWith('/') && f.startsWith(e)));
    expect(helpers.filter((h) => !packaged(h)), 'missing from package.json files').toEqual([]);
    const mod = (await import(pathToFileURL(join(repo, 'scripts/lib/shipped-helpers.mjs')).href)) as { SHIPPED_HELPERS: string[] };
    expect(helpers.filter((h) => !mod.SHIPPED_HELPERS.includes(h)), 'missing from the single executable assets').toEqual([]);
    // The executable and the prepack check take their list from there, not from a copy of their own.
    for (const script of ['scripts/build-sea.mjs', 'scripts/check-pack.mjs']) expect(readFileSync(join(repo, script), 'utf8')).toMatch(/SHIPPED_HELPERS/);
  });
});
