// NRI adjustments are merged and applied in linear time, and a plugin's
// answer past a cap is refused whole. Linearity is checked by counting the
// operations that grow with a scan per entry (reads of an entry's key, splits
// of env strings), never by a clock.
import { describe, expect, it } from 'vitest';
import type * as nri from '../../src/api/nri.js';
import { applyAdjustment } from '../../src/nri/adaptation/apply-adjustment.js';
import { ADJUSTMENT_LIMITS, AdjustmentLimitError } from '../../src/nri/adaptation/limits.js';
import type { OciSpec } from '../../src/nri/adaptation/oci-spec.js';
import { Result } from '../../src/nri/adaptation/result.js';

function container(env: string[] = ['PATH=/usr/bin']): nri.Container {
  return {
    id: 'c1', podSandboxId: 'p1', name: 'app', state: 'CONTAINER_CREATED', labels: {}, annotations: {}, args: ['sh'], env,
    mounts: [], hooks: null, linux: { namespaces: [], devices: [], resources: null, oomScoreAdj: null, cgroupsPath: '', ioPriority: null, seccompProfile: null, seccompPolicy: null, sysctl: {}, netDevices: {}, scheduler: null, rdt: null },
    pid: 0, rlimits: [], createdAt: '0', startedAt: '0', finishedAt: '0', exitCode: 0, statusReason: '', statusMessage: '', CDIDevices: [], user: null, image: null,
  } as unknown as nri.Container;
}

const reply = (a: Partial<nri.ContainerAdjustment>): { adjust: nri.ContainerAdjustment } => ({
  adjust: { annotations: {}, mounts: [], env: [], hooks: null, linux: null, rlimits: [], CDIDevices: [], args: [], ...a },
});

/** Service-link shaped env entries whose `key` reads are counted. */
function countedEnv(n: number, prefix: string, reads: { n: number }): nri.KeyValue[] {
  return Array.from({ length: n }, (_, i) => {
    const key = `${prefix}${i}_SERVICE_HOST`;
    return { get key() { reads.n++; return key; }, value: `10.96.${(i >> 8) & 255}.${i & 255}` };
  });
}

describe('merging plugin adjustments scales linearly', () => {
  it('reads each env entry a constant number of times, however many a plugin sends', () => {
    const n = 4_000;
    const reads = { n: 0 };
    const r = new Result(container());
    r.applyCreate(reply({ env: countedEnv(n, 'SVC_A', reads) }), '10-a');
    r.applyCreate(reply({ env: countedEnv(n, 'SVC_B', reads) }), '20-b');
    // A scan of the merged list per entry reads keys ~(2n)²/2 times (3.2e7 here).
    expect(reads.n).toBeLessThan(2 * n * 12);
    expect(r.adjust.env).toHaveLength(2 * n);
    expect(r.adjust.env[n].key).toBe('SVC_B0_SERVICE_HOST');
    const c = r['container'] as nri.Container;
    expect(c.env).toHaveLength(2 * n + 1);
    expect(c.env[2 * n]).toBe(`SVC_B${n - 1}_SERVICE_HOST=10.96.15.159`);
  });

  it('merges removals, replacements and re-adds by key in one pass', () => {
    const r = new Result(container(['A=0', 'B=0']));
    r.applyCreate(reply({ env: [{ key: 'A', value: '1' }, { key: '-B', value: '' }, { key: 'C', value: '1' }] }), '10-a');
    r.applyCreate(reply({ env: [{ key: 'D', value: '1' }] }), '20-b');
    expect(r.adjust.env.map((e) => e.key)).toEqual(['-B', 'A', 'C', 'D']);
    expect((r['container'] as nri.Container).env).toEqual(['A=1', 'C=1', 'D=1']);
  });
});

describe('applying an adjustment scales linearly', () => {
  it('splits each env string a constant number of times', () => {
    const n = 3_000;
    const spec: OciSpec = { process: { args: ['sh'], env: Array.from({ length: n }, (_, i) => `OLD_${i}=x`) } };
    const env = Array.from({ length: n }, (_, i) => ({ key: i % 2 ? `OLD_${i}` : `NEW_${i}`, value: 'y' }));
    // A bare counter, not vi.spyOn: a spy keeps every call's arguments.
    const original = String.prototype.split;
    let calls = 0;
    String.prototype.split = function (this: string, ...args: Parameters<typeof original>) {
      calls++;
      return original.apply(this, args);
    } as typeof original;
    let out: OciSpec;
    try {
      out = applyAdjustment(spec, { env: [...env, { key: '-OLD_0', value: '' }] }).spec;
    } finally {
      String.prototype.split = original;
    }
    // A scan of the spec's env per entry splits ~2n² strings (1.8e7 here).
    expect(calls).toBeLessThan(4 * n);
    const got = out.process!.env!;
    expect(got).toHaveLength(n - 1 + n / 2);
    expect(got[0]).toBe('OLD_1=y');
    expect(got[1]).toBe('OLD_2=x');
    expect(got[n - 1]).toBe('NEW_0=y');
  });

  it('applies 100,000 env entries, mounts and devices keeping replace-in-place and move-to-end order', () => {
    const n = 100_000;
    const spec: OciSpec = {
      process: { env: ['PATH=/bin', 'KEEP=1'] },
      mounts: [{ destination: '/a', type: 'bind', source: '/x' }, { destination: '/b', type: 'bind', source: '/y' }],
      linux: { devices: [{ path: '/dev/a', type: 'c', major: 1, minor: 1 }] },
    };
    const { spec: out } = applyAdjustment(spec, {
      env: [{ key: 'PATH', value: '/usr/bin' }, ...Array.from({ length: n }, (_, i) => ({ key: `V${i}`, value: String(i) }))],
      mounts: [{ destination: '/a', type: 'bind', source: '/z' }, ...Array.from({ length: n }, (_, i) => ({ destination: `/m/${i}`, type: 'tmpfs', source: 'tmpfs' }))],
      linux: { devices: [{ path: '-/dev/a' }, ...Array.from({ length: n }, (_, i) => ({ path: `/dev/d${i}`, type: 'c', major: '1', minor: String(i) }))] },
    });
    expect(out.process!.env!.slice(0, 3)).toEqual(['PATH=/usr/bin', 'KEEP=1', 'V0=0']);
    expect(out.process!.env).toHaveLength(n + 2);
    expect(out.mounts!.slice(0, 2).map((m) => m.destination)).toEqual(['/b', '/a']);
    expect(out.mounts).toHaveLength(n + 2);
    expect(out.linux!.devices).toHaveLength(n);
    expect(out.linux!.resources!.devices).toHaveLength(n);
  }, 60_000);
});

describe('caps on one plugin\'s answer', () => {
  const over = (limit: keyof typeof ADJUSTMENT_LIMITS): number => ADJUSTMENT_LIMITS[limit] + 1;
  const hook = { path: '/bin/true', args: [], env: [], timeout: null };

  it.each([
    ['env', reply({ env: Array.from({ length: over('env') }, (_, i) => ({ key: `E${i}`, value: '' })) }), `asked for ${over('env')} environment variables, over the limit of ${ADJUSTMENT_LIMITS.env}`],
    ['mounts', reply({ mounts: Array.from({ length: over('mounts') }, (_, i) => ({ destination: `/m${i}`, type: 'tmpfs', source: 'tmpfs', options: [] })) }), `asked for ${over('mounts')} mounts, over the limit of ${ADJUSTMENT_LIMITS.mounts}`],
    ['hooks', reply({ hooks: { prestart: Array(100).fill(hook), createRuntime: [], createContainer: [], startContainer: [], poststart: Array(29).fill(hook), poststop: [] } }), `asked for 129 OCI hooks, over the limit of ${ADJUSTMENT_LIMITS.hooks}`],
    ['annotations', reply({ annotations: Object.fromEntries(Array.from({ length: over('annotations') }, (_, i) => [`k${i}`, ''])) }), `asked for ${over('annotations')} annotations, over the limit of ${ADJUSTMENT_LIMITS.annotations}`],
    ['annotation bytes', reply({ annotations: { big: 'x'.repeat(ADJUSTMENT_LIMITS.annotationBytes) } }), `asked for ${ADJUSTMENT_LIMITS.annotationBytes + 3} bytes of annotations, over the limit of ${ADJUSTMENT_LIMITS.annotationBytes}`],
    ['rlimits', reply({ rlimits: Array.from({ length: over('rlimits') }, () => ({ type: 'RLIMIT_NOFILE', hard: '1', soft: '1' })) }), `asked for ${over('rlimits')} rlimits, over the limit of ${ADJUSTMENT_LIMITS.rlimits}`],
    ['args', reply({ args: Array(over('args')).fill('x') }), `asked for ${over('args')} arguments, over the limit of ${ADJUSTMENT_LIMITS.args}`],
    ['CDI devices', reply({ CDIDevices: Array.from({ length: over('cdiDevices') }, (_, i) => ({ name: `v/c=${i}` })) }), `asked for ${over('cdiDevices')} CDI devices, over the limit of ${ADJUSTMENT_LIMITS.cdiDevices}`],
  ])('refuses a plugin past the %s cap, naming it, and merges nothing of it', (_what, rpl, message) => {
    const c = container();
    const r = new Result(c);
    r.applyCreate(reply({ env: [{ key: 'FIRST', value: '1' }] }), '10-first');
    let err: unknown;
    try {
      r.applyCreate(rpl, '20-greedy');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AdjustmentLimitError);
    expect((err as Error).message).toBe(`plugin 20-greedy ${message}`);
    expect(r.adjust.env).toEqual([{ key: 'FIRST', value: '1' }]);
    expect(c.env).toEqual(['PATH=/usr/bin', 'FIRST=1']);
  });

  it('accepts an answer exactly at the caps', () => {
    const r = new Result(container());
    r.applyCreate(reply({ env: Array.from({ length: ADJUSTMENT_LIMITS.env }, (_, i) => ({ key: `E${i}`, value: '' })) }), '10-a');
    expect(r.adjust.env).toHaveLength(ADJUSTMENT_LIMITS.env);
  });

  it('caps updates a plugin asks for other containers', () => {
    const r = new Result(null);
    const updates = Array.from({ length: ADJUSTMENT_LIMITS.updates + 1 }, (_, i) => ({ containerId: `c${i}`, linux: null, ignoreFailure: false })) as unknown as nri.ContainerUpdate[];
    expect(() => r.applyUpdates(updates, '10-a')).toThrow(`plugin 10-a asked for ${ADJUSTMENT_LIMITS.updates + 1} container updates, over the limit of ${ADJUSTMENT_LIMITS.updates}`);
  });
});
