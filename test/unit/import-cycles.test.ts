import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph } from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/import-cycles', import.meta.url));

describe('import circles', () => {
  it('src/ has none (static, dynamic, export-from and type-only imports all count)', () => {
    const cycles = importCycles(importGraph(SRC)).map((c) => c.join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('the engine and what it stands on import nothing from the client, CLI, commands or daemon layers', () => {
    const below = ['runtime/', 'api/', 'util/', 'protocols/', 'nri/'];
    const above = ['client/', 'cli/', 'commands/', 'daemon/'];
    const upward = [...importGraph(SRC)]
      .filter(([file]) => below.some((d) => file.startsWith(d)))
      .flatMap(([file, targets]) => targets.filter((t) => above.some((d) => t.startsWith(d))).map((t) => `${file} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('reads the whole of src/, dynamic imports included', () => {
    const graph = importGraph(SRC);
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('cli/main.ts')).toEqual(expect.arrayContaining(['cli/registry.ts', 'cli/oclif-adapter.ts']));
    expect(graph.get('cli/registry.ts')).toContain('commands/completion.ts');
    expect(graph.get('runtime/engine-context.ts')).toContain('runtime/nri/engine-nri.ts');
  });

  it('finds a circle of static imports', () => {
    expect(importCycles(importGraph(`${FIXTURES}/static`))).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('finds a circle closed by type-only, dynamic and export-from imports', () => {
    expect(importCycles(importGraph(`${FIXTURES}/mixed`))).toEqual([['sub/index.ts', 'x.ts', 'y.ts', 'z.ts', 'sub/index.ts']]);
  });

  it('ignores imports in comments and strings, and packages', () => {
    const graph = importGraph(`${FIXTURES}/clean`);
    expect(graph.get('one.ts')).toEqual(['two.ts']);
    expect(importCycles(graph)).toEqual([]);
  });
});
