// The import graph of a TypeScript tree and its circles, for the test that keeps src/ free of them.
// Every edge counts: static imports, `export ... from`, dynamic `import()` and type-only imports.
// A type-only circle costs nothing at run time, but it still ties two modules to each other's
// shapes, which is what keeps a layer from being read, tested or replaced on its own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type ImportGraph = Map<string, string[]>;

/** Every .ts file under root (relative paths) with the .ts files under root it imports. */
export function importGraph(root: string): ImportGraph {
  const files = listTs(root);
  const known = new Set(files);
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((f) => f.fileName)
      .filter((spec) => spec.startsWith('./') || spec.startsWith('../'))
      .map((spec) => resolveSpecifier(root, file, spec, known))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One circle (a path that starts and ends at the same file) per strongly connected component. */
export function importCycles(graph: ImportGraph): string[][] {
  const cycles: string[][] = [];
  for (const component of stronglyConnected(graph)) {
    const start = [...component].sort()[0];
    if (component.size === 1 && !(graph.get(start) ?? []).includes(start)) continue;
    cycles.push(pathBack(graph, component, start));
  }
  return cycles;
}

function listTs(root: string, dir = root): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTs(root, path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(root, path));
  }
  return out.sort();
}

/** `./x.js`, `./x.ts`, `./x` or `./x/index.js` as the file the compiler would pick. */
function resolveSpecifier(root: string, from: string, spec: string, known: Set<string>): string | undefined {
  const base = relative(root, resolve(root, dirname(from), spec));
  const stem = base.replace(/\.(js|ts|mjs)$/, '');
  return [`${stem}.ts`, join(stem, 'index.ts')].find((c) => known.has(c));
}

/** Tarjan's algorithm, iterative so that deep chains cannot overflow the stack. */
function stronglyConnected(graph: ImportGraph): Array<Set<string>> {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: Array<Set<string>> = [];
  let next = 0;
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const edges = graph.get(frame.node) ?? [];
      if (frame.edge < edges.length) {
        const to = edges[frame.edge++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, edge: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.node)!));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = new Set<string>();
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.add(member);
        } while (member !== frame.node);
        out.push(component);
      }
    }
  }
  return out;
}

/** The shortest path from start back to start inside its component (breadth first). */
function pathBack(graph: ImportGraph, component: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.unshift(at);
        path.unshift(start);
        return path;
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}
