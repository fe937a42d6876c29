// What a real `isulats daemon` has loaded, read from the process itself: it runs under
// NODE_V8_COVERAGE with a preloaded probe (`node --require`) that, on SIGUSR2, writes V8's
// coverage and reports its argv and the builtin modules Node loaded (process.moduleLoadList).
// The coverage names the scripts that ran (which of our bundles, dist/*.cjs, the process runs)
// and, through the bundle's source map (dist/*.cjs.map), the modules whose code ran: a bundled
// module's code runs first when esbuild's wrapper initialises it, at its first import. V8 resets
// the counts at each write, so a module counts as run once any write so far shows it.
import { wrap } from 'node:module';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  /** Source modules of the bundles with code that ran: `src/daemon/daemon.ts`, `node_modules/ws/lib/websocket.js`. */
  ran: Set<string>;
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
      const ran = new Set<string>();
      for (const name of (await readdir(coverage)).filter((f) => f.startsWith(`coverage-${pid}-`))) {
        const file = JSON.parse(await readFile(join(coverage, name), 'utf8')) as CoverageFile;
        for (const script of file.result.filter((s) => /\/dist\/[^/]+\.cjs$/.test(s.url))) {
          bundles.add(script.url);
          const map = await bundleMap(fileURLToPath(script.url));
          for (const f of script.functions) {
            const range = f.ranges[0];
            if (!range || range.count === 0) continue;
            const source = map.sourceFrom(range.startOffset - WRAP_PREFIX);
            if (source) ran.add(source);
          }
        }
      }
      return { argv, builtins: modules, bundles: [...bundles], ran };
    },
  };
}

/** The bundled modules of `ran` under a path prefix (`node_modules/ws/`, `src/protocols/spdy/`). */
export function ranUnder(ran: Set<string>, prefix: string): string[] {
  return [...ran].filter((m) => m.startsWith(prefix)).sort();
}

// bin/isulats.cjs compiles a bundle inside Node's CommonJS wrapper: coverage offsets count it.
const WRAP_PREFIX = wrap('\0').indexOf('\0');

interface BundleMap {
  /** The module of the first mapped code at or after `offset` in the bundle (a function's first token, or its body's). */
  sourceFrom(offset: number): string | undefined;
}

const maps = new Map<string, Promise<BundleMap>>();

function bundleMap(bundle: string): Promise<BundleMap> {
  let map = maps.get(bundle);
  if (!map) maps.set(bundle, (map = loadBundleMap(bundle)));
  return map;
}

async function loadBundleMap(bundle: string): Promise<BundleMap> {
  const text = await readFile(bundle, 'utf8');
  const { sources, mappings } = JSON.parse(await readFile(`${bundle}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  // Per generated line: columns and source indexes of its segments, in column order.
  const lines = decodeMappings(mappings);
  const names = sources.map(moduleName);
  return {
    sourceFrom(offset) {
      let line = lineStarts.length - 1;
      while (line > 0 && lineStarts[line]! > offset) line--;
      let column = offset - lineStarts[line]!;
      for (; line < lines.length; line++, column = 0) {
        const segs = lines[line]!;
        let lo = 0;
        let hi = segs.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (segs[mid]!.column < column) lo = mid + 1;
          else hi = mid;
        }
        if (lo < segs.length) return names[segs[lo]!.source];
      }
      return undefined;
    },
  };
}

/** `../src/x.ts` -> `src/x.ts`; `../node_modules/p/f.js` and `../../other/node_modules/p/f.js` -> `node_modules/p/f.js`. */
function moduleName(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  return nm >= 0 ? source.slice(nm) : source.replace(/^(\.\.\/)+/, '');
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Source map v3 "mappings": base64 VLQ, `;` between generated lines, `,` between segments. */
function decodeMappings(mappings: string): Array<Array<{ column: number; source: number }>> {
  const lines: Array<Array<{ column: number; source: number }>> = [];
  let source = 0;
  for (const line of mappings.split(';')) {
    const segs: Array<{ column: number; source: number }> = [];
    let column = 0;
    for (const seg of line.split(',')) {
      if (!seg) continue;
      const fields: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += fields[0]!;
      if (fields.length >= 4) {
        source += fields[1]!;
        segs.push({ column, source });
      }
      // Fields 2-4 (source line, column, name) are cumulative too, but only the source is needed.
    }
    lines.push(segs);
  }
  return lines;
}
