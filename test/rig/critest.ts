// The upstream CRI validation suite (critest of cri-tools v1.34.0 and v1.26.1) as
// scripts/build-critest.sh builds it from ../shared/cri-tools beside the repo, and what its ginkgo
// JSON report says.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from './cli.js';

/** The releases scripts/build-critest.sh builds (its RELEASES). */
export type CritestRelease = '1.34.0' | '1.26.1';

const SOURCES = process.env.ISULATS_CRITEST_SOURCES ?? resolve(REPO_ROOT, '../shared/cri-tools');

export const critestTarball = (release: CritestRelease) => join(SOURCES, `cri-tools-${release}-critest.tar.gz`);

export type CritestBinary = { path: string } | { absent: string };

/**
 * The binary built from the release's tarball; `absent` says why there is none to run when the
 * tarball itself is missing. A tarball without its binary throws: setup did not finish.
 */
export function findCritest(release: CritestRelease): CritestBinary {
  const tarball = critestTarball(release);
  if (!existsSync(tarball)) return { absent: `no ${tarball} (../shared/cri-tools beside the repo)` };
  const dir = process.env.ISULATS_CRITEST_DIR ?? '/var/cache/isulats/critest';
  // Same name as the build script's: sha256 of the tarball, 16 hex digits.
  const hash = createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16);
  const path = join(dir, `critest-${hash}`);
  if (!existsSync(path)) throw new Error(`critest v${release} not built for ${tarball} (no ${path}): run scripts/build-critest.sh (scripts/setup.sh does)`);
  return { path };
}

export interface SpecResult {
  /** Container texts and the spec's own, as ginkgo prints them: `[sig-node] Image Manager public image ...`. */
  name: string;
  state: string;
  failure?: string;
}

export interface CritestResults {
  specs: SpecResult[];
  passed: SpecResult[];
  failed: SpecResult[];
}

/** The specs that ran (skipped and pending ones left out) from `--ginkgo.json-report`. */
export async function readGinkgoReport(path: string): Promise<CritestResults> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const suites = JSON.parse(await readFile(path, 'utf8')) as any[];
  const specs: SpecResult[] = [];
  for (const suite of suites) {
    for (const spec of suite.SpecReports ?? []) {
      if (spec.LeafNodeType !== 'It' || spec.State === 'skipped' || spec.State === 'pending') continue;
      const name = [...(spec.ContainerHierarchyTexts ?? []), spec.LeafNodeText].join(' ');
      const failure = spec.Failure ? `${spec.Failure.Message ?? ''} (${spec.Failure.Location?.FileName ?? '?'}:${spec.Failure.Location?.LineNumber ?? '?'})` : undefined;
      specs.push({ name, state: spec.State, failure });
    }
  }
  return {
    specs,
    passed: specs.filter((s) => s.state === 'passed'),
    failed: specs.filter((s) => s.state !== 'passed'),
  };
}
