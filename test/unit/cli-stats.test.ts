import { describe, expect, it } from 'vitest';
import { containerStatsRows, cpuPercent, parseLabels, sortStats } from '../../src/commands/stats.js';
import { podStatsRows } from '../../src/commands/statsp.js';
import { parseMemory, updateResources } from '../../src/commands/update.js';

const cpu = (ts: number, used: number) => ({ timestamp: String(ts), usageCoreNanoSeconds: { value: String(used) }, usageNanoCores: null, psi: null });

function ctr(id: string, name: string, ts: number, used: number, mem: number): any {
  return {
    attributes: { id, metadata: { name, attempt: 0 }, labels: {}, annotations: {} },
    cpu: cpu(ts, used),
    memory: { timestamp: String(ts), workingSetBytes: { value: String(mem) } },
    writableLayer: { usedBytes: { value: '4096' }, inodesUsed: { value: '7' } },
  };
}

describe('container stats', () => {
  it('computes CPU % from two samples', () => {
    expect(cpuPercent(cpu(2e9, 1.5e9), cpu(1e9, 1e9))).toBeCloseTo(50);
    expect(cpuPercent(cpu(2e9, 0), cpu(1e9, 0))).toBe(0);
    expect(() => cpuPercent(cpu(1e9, 5), cpu(1e9, 1))).toThrow('cpu stat is not updated during sample');
  });

  it('lists running containers present in both samples, sorted by ID', () => {
    const id1 = 'a'.repeat(64);
    const id2 = 'b'.repeat(64);
    const first = sortStats([ctr(id2, 'web', 1e9, 0, 0), ctr(id1, 'db', 1e9, 1e9, 1e6)]);
    const second = sortStats([ctr(id2, 'web', 2e9, 0, 0), ctr(id1, 'db', 2e9, 1.25e9, 1e6), ctr('c'.repeat(64), 'new', 2e9, 1, 1)]);
    expect(containerStatsRows(first, second, false)).toEqual([['aaaaaaaaaaaaa', 'db', '25.00', '1MB', '4.096kB', '7', '0B']]);
    expect(containerStatsRows(first, second, true).map((r) => r[1])).toEqual(['db', 'web']);
  });

  it('lists pods with CPU or memory data', () => {
    const pod = (ts: number, used: number) => ({ attributes: { id: 'p'.repeat(64), metadata: { name: 'pod1' } }, linux: { cpu: cpu(ts, used), memory: { workingSetBytes: { value: '2000' } } }, windows: null });
    expect(podStatsRows([pod(1e9, 1e9)] as any, [pod(3e9, 2e9)] as any)).toEqual([['pod1', 'ppppppppppppp', '50.00', '2kB']]);
  });

  it('parses labels strictly', () => {
    expect(parseLabels(['a=b', 'c=d'])).toEqual({ a: 'b', c: 'd' });
    expect(() => parseLabels(['a=b=c'])).toThrow('incorrectly specified label: a=b=c');
  });
});

describe('update', () => {
  it.each([
    ['1048576', '1048576'],
    ['512m', String(512 * 1024 * 1024)],
    ['1.5g', String(1.5 * 1024 ** 3)],
    ['64MiB', String(64 * 1024 ** 2)],
    ['2k', '2048'],
  ])('parses memory %s', (v, want) => {
    expect(parseMemory(v)).toBe(want);
  });

  it('rejects bad sizes', () => {
    expect(() => parseMemory('lots')).toThrow(/invalid size/);
  });

  it('builds resources from the given flags only', () => {
    expect(updateResources({ 'cpu-quota': '50000', 'cpu-period': '100000', memory: '64m', 'cpuset-cpus': '0' })).toEqual({
      cpuQuota: '50000',
      cpuPeriod: '100000',
      memoryLimitInBytes: String(64 * 1024 ** 2),
      cpusetCpus: '0',
    });
    expect(() => updateResources({ 'cpu-share': 'x' })).toThrow(/invalid value "x" for flag -cpu-share/);
    expect(() => updateResources({ 'cpu-rt-runtime': '950000' })).toThrow(/no real-time CPU fields/);
    expect(updateResources({ 'cpu-rt-period': '0' })).toEqual({});
  });
});
