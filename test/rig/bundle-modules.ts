// What a real `isulats daemon` has loaded, read from the process itself: it runs under
// NODE_V8_COVERAGE with a preloaded probe (`node --require`) that, on SIGUSR2, writes V8's
// coverage and reports its argv and the builtin modules Node loaded (process.moduleLoadList).
// The coverage names the scripts that ran: which of our bundles (dist/*.cjs) the process runs.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from './wait.js';

const PROBE = `
const { writeFileSync } = require('node:fs');
const v8 = require('node:v8');
process.on('SIGUSR2', () => {
  if (process.env.NODE_V8_COVERAGE) v8.takeCoverage();
  writeFileSync(process.env.IST_PROBE_OUT, JSON.stringify({ argv: process.argv, modules: process.moduleLoadList }));
});
`;

interface CoverageFile {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ startOffset: number; endOffset: number; count: number }> }> }>;
}

export interface ProbeReport {
  argv: string[];
  /** Node's builtin modules and bindings loaded (process.moduleLoadList). */
  builtins: string[];
  /** Our bundles (file URLs of dist/*.cjs) the process has compiled. */
  bundles: string[];
}

export interface BundleProbe {
  /** Node options and environment for startIsulatsDaemon. */
  nodeArgs: string[];
  env: Record<string, string>;
  /** Asks the daemon (by PID) for a report. */
  report(pid: number): Promise<ProbeReport>;
}

/** A probe whose files live in `dir` (a test's temp dir). */
export async function bundleProbe(dir: string): Promise<BundleProbe> {
  const probe = join(dir, 'probe.cjs');
  const out = join(dir, 'probe.json');
  const coverage = join(dir, 'coverage');
  await writeFile(probe, PROBE);
  return {
    nodeArgs: [`--require=${probe}`],
    env: { IST_PROBE_OUT: out, NODE_V8_COVERAGE: coverage },
    async report(pid) {
      await writeFile(out, '');
      process.kill(pid, 'SIGUSR2');
      const text = await waitFor(async () => (await readFile(out, 'utf8')) || undefined, { timeoutMs: 10_000, intervalMs: 50, what: 'the probe' });
      const { argv, modules } = JSON.parse(text) as { argv: string[]; modules: string[] };
      const bundles = new Set<string>();
      for (const name of (await readdir(coverage)).filter((f) => f.startsWith(`coverage-${pid}-`))) {
        const file = JSON.parse(await readFile(join(coverage, name), 'utf8')) as CoverageFile;
        for (const script of file.result.filter((s) => /\/dist\/[^/]+\.cjs$/.test(s.url))) bundles.add(script.url);
      }
      return { argv, builtins: modules, bundles: [...bundles] };
    },
  };
}
