import { describe, expect, it } from 'vitest';
import { buildView, containerOrder, cpuPercent } from '../../src/cli/top/top-model.js';
import { bar, fit, renderInspectPage, renderPlain, renderScreen, scrollStart } from '../../src/cli/top/top-screen.js';
import { decodeKeys, moveSelection } from '../../src/cli/top/top-keys.js';
import type { NodeSample, PodInfo } from '../../src/cli/top/node-sample.js';

const id = (c: string) => c.repeat(64);
const SEC = 1_000_000_000n;
const pods: PodInfo[] = [
  { id: id('a'), name: 'web-7d9c5b6f4-x2k8q', namespace: 'shop', labels: { app: 'web' } },
  { id: id('b'), name: 'coredns-5d78c9869d-qx4lb', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' } },
];
const reading = (c: string, podId: string, name: string, usageSec: number, atSec: bigint, memMiB: number) => ({
  id: id(c), name, podId, memBytes: memMiB * 1024 * 1024, cpu: { usageNs: BigInt(Math.round(usageSec * 1e9)), atNs: atSec * SEC },
});
const first: NodeSample = {
  pods,
  containers: [reading('c', id('a'), 'nginx', 10, 100n, 50), reading('d', id('a'), 'sidecar', 1, 100n, 10), reading('e', id('b'), 'coredns', 5, 100n, 30)],
};
// Two seconds later: nginx used 1.5 s of CPU (75 %), sidecar 0.1 s (5 %), coredns 0.5 s (25 %).
const second: NodeSample = {
  pods,
  containers: [reading('c', id('a'), 'nginx', 11.5, 102n, 60), reading('d', id('a'), 'sidecar', 1.1, 102n, 10), reading('e', id('b'), 'coredns', 5.5, 102n, 80)],
};

describe('top model', () => {
  it('computes CPU % from usage_core_nano_seconds deltas, with pod and node totals', () => {
    const v = buildView(first, second, { sort: 'cpu' });
    expect(v.pods.map((p) => [p.name, p.cpuPercent])).toEqual([['web-7d9c5b6f4-x2k8q', 80], ['coredns-5d78c9869d-qx4lb', 25]]);
    expect(v.pods[0]!.containers.map((c) => [c.name, c.cpuPercent])).toEqual([['nginx', 75], ['sidecar', expect.closeTo(5, 6)]]);
    expect(v.cpuPercent).toBeCloseTo(105, 6);
    expect(v.memBytes).toBe(150 * 1024 * 1024);
    expect(v.containerCount).toBe(3);
  });

  it('has no CPU % before a second reading, nor across a counter reset or a stale timestamp', () => {
    expect(buildView(undefined, first, { sort: 'cpu' }).cpuPercent).toBeUndefined();
    expect(cpuPercent({ usageNs: 5n, atNs: 10n }, { usageNs: 3n, atNs: 20n })).toBeUndefined();
    expect(cpuPercent({ usageNs: 5n, atNs: 10n }, { usageNs: 9n, atNs: 10n })).toBeUndefined();
  });

  it.each([
    ['mem', ['coredns-5d78c9869d-qx4lb', 'web-7d9c5b6f4-x2k8q'], ['nginx', 'sidecar']],
    ['name', ['coredns-5d78c9869d-qx4lb', 'web-7d9c5b6f4-x2k8q'], ['nginx', 'sidecar']],
    ['cpu', ['web-7d9c5b6f4-x2k8q', 'coredns-5d78c9869d-qx4lb'], ['nginx', 'sidecar']],
  ] as const)('sorts pods and their containers by %s', (sort, podNames, webContainers) => {
    const v = buildView(first, second, { sort });
    expect(v.pods.map((p) => p.name)).toEqual(podNames);
    expect(v.pods.find((p) => p.namespace === 'shop')!.containers.map((c) => c.name)).toEqual(webContainers);
  });

  it('filters pods by namespace and by labels', () => {
    expect(buildView(first, second, { sort: 'cpu', namespace: 'kube-system' }).pods.map((p) => p.name)).toEqual(['coredns-5d78c9869d-qx4lb']);
    expect(buildView(first, second, { sort: 'cpu', labels: { app: 'web' } }).containerCount).toBe(2);
    expect(buildView(first, second, { sort: 'cpu', labels: { app: 'db' } }).pods).toEqual([]);
  });
});

describe('top screen', () => {
  const view = buildView(first, second, { sort: 'cpu' });
  const base = { width: 120, height: 20, sort: 'cpu' as const, intervalMs: 2000, cores: 2, memTotalBytes: 1024 * 1024 * 1024, target: 'unix:///run/isulats/isulats.sock' };

  it('draws a title with totals, pods with their containers, bars, and the selection marked', () => {
    const lines = renderScreen(view, { ...base, selected: id('d') });
    expect(lines.every((l) => l.replace(/\x1b\[\d*m/g, '').length === 120)).toBe(true);
    expect(lines[0]).toMatch(/^isulats top - unix:\/\/\/run\/isulats\/isulats.sock - 2 pods, 3 containers - CPU 105.0% MEM 150MiB - every 2s - sort: cpu/);
    const body = lines.slice(3).map((l) => l.replace(/\x1b\[\d*m/g, ''));
    expect(body[0]).toMatch(/^  shop\/web-7d9c5b6f4-x2k8q\s+80.0 \[\|{6} {10}\]\s+70MiB \[\|{1} {15}\] aaaaaaaaaaaaa$/);
    expect(body[1]).toMatch(/^    nginx\s+75.0 \[/);
    expect(body[2]).toMatch(/^>   sidecar\s+5.0 \[/);
    expect(lines[5]).toMatch(/^\x1b\[7m>/);
    expect(body[3]).toMatch(/^  kube-system\/coredns-5d78c9869d-qx4lb\s+25.0 /);
  });

  it('keeps the selected row in view on a short terminal', () => {
    const lines = renderScreen(view, { ...base, height: 5, selected: id('e') });
    expect(lines).toHaveLength(5);
    expect(lines.some((l) => l.includes('coredns') && l.includes('>'))).toBe(true);
    expect(scrollStart(9, 10, 4)).toBe(6);
    expect(scrollStart(0, 10, 4)).toBe(0);
    expect(scrollStart(5, 3, 4)).toBe(0);
  });

  it('says so when nothing runs, and cuts long names on a narrow terminal', () => {
    expect(renderScreen({ pods: [], memBytes: 0, containerCount: 0 }, base).at(-1)).toMatch(/no running containers match/);
    expect(renderScreen(view, { ...base, width: 50 }).every((l) => l.replace(/\x1b\[\d*m/g, '').length === 50)).toBe(true);
    expect(fit('abcdef', 4)).toBe('abc~');
    expect(bar(0.5, 4)).toBe('[||  ]');
    expect(bar(3, 2)).toBe('[||]');
    expect(bar(Number.NaN, 2)).toBe('[  ]');
  });

  it('prints a plain table with pod and node totals', () => {
    const text = renderPlain(view);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAMESPACE\s+POD\s+CONTAINER\s+ID\s+CPU %\s+MEM$/);
    expect(lines).toHaveLength(1 + 3 + 2 + 1);
    expect(lines[1]).toMatch(/^shop\s+web-7d9c5b6f4-x2k8q\s+nginx\s+c{13}\s+75.00\s+60MiB$/);
    expect(lines.at(-1)).toMatch(/\(node total\)\s+105.00\s+150MiB$/);
  });

  it('pages the inspect text with a way back', () => {
    const page = renderInspectPage('{\n  "status": {}\n}\n', 30, 3);
    expect(page.map((l) => l.trimEnd())).toEqual(['{', '  "status": {}', '-- press any key to return (1 more lines) --'.slice(0, 29) + '~']);
  });
});

describe('top keys', () => {
  it.each([
    ['q', ['quit']],
    ['\x03', ['quit']],
    ['\x1b[A\x1b[B\x1bOA\x1bOB', ['up', 'down', 'up', 'down']],
    ['jk\rs', ['down', 'up', 'enter', 'sort']],
    ['\x1b[5~x', ['other', 'other']],
  ])('decodes %j', (input, keys) => {
    expect(decodeKeys(input)).toEqual(keys);
  });

  it('moves the selection within the shown order, and keeps it on the same container', () => {
    const order = containerOrder(buildView(first, second, { sort: 'cpu' }));
    expect(order).toEqual([id('c'), id('d'), id('e')]);
    expect(moveSelection(order, id('c'), 'up')).toBe(id('c'));
    expect(moveSelection(order, id('c'), 'down')).toBe(id('d'));
    expect(moveSelection(order, id('e'), 'down')).toBe(id('e'));
    expect(moveSelection(order, 'gone', 'down')).toBe(id('c'));
    expect(moveSelection([], undefined, 'down')).toBeUndefined();
  });
});
