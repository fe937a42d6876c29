// The one check of CRI LinuxContainerResources: exact int64 handling and the
// ranges runc and the kernel take, against a fixed host topology.
import { describe, expect, it } from 'vitest';
import { exactInt, parseIdList, resourcesProblem, type HostTopology } from '../../src/runtime/container/resource-validation.js';

const HOST: HostTopology = { cpus: new Set([0, 1, 2, 3]), mems: new Set([0]) };
const check = (res: Parameters<typeof resourcesProblem>[0], role: 'container' | 'pod' = 'container') => resourcesProblem(res, 'config.linux.resources', HOST, role);

describe('resourcesProblem', () => {
  it.each([
    [{ memoryLimitInBytes: -5 }, /^config\.linux\.resources\.memory_limit_in_bytes must be 0 \(unset\) or between 6291456 and 9007199254740991, got -5$/],
    [{ memoryLimitInBytes: 1e23 }, /memory_limit_in_bytes .* got 99999999999999991611392$/],
    [{ memoryLimitInBytes: '9223372036854775807' }, /memory_limit_in_bytes .* got 9223372036854775807$/],
    [{ memoryLimitInBytes: '9007199254740993' }, /memory_limit_in_bytes .* got 9007199254740993$/],
    [{ memoryLimitInBytes: 4096 }, /memory_limit_in_bytes .* got 4096$/],
    [{ memoryLimitInBytes: 1.5 }, /memory_limit_in_bytes must be an integer, got "1.5"/],
    [{ memoryLimitInBytes: '12abc' }, /memory_limit_in_bytes must be an integer/],
    [{ cpuShares: '18446744073709551616' }, /cpu_shares must be 0 \(unset\) or between 2 and 262144, got 18446744073709551616$/],
    [{ cpuShares: 1 }, /cpu_shares .* got 1$/],
    [{ cpuShares: 262145 }, /cpu_shares/],
    [{ cpuQuota: -100 }, /cpu_quota must be 0 \(unset\), -1 \(no limit\) or between 1000 and 17592186044415 \(µs\), got -100$/],
    [{ cpuQuota: '17592186044416' }, /cpu_quota .* got 17592186044416$/],
    [{ cpuPeriod: 1 }, /cpu_period must be 0 \(unset\) or between 1000 and 1000000 \(µs\), got 1$/],
    [{ cpuPeriod: 1_000_001 }, /cpu_period/],
    [{ memorySwapLimitInBytes: -2 }, /memory_swap_limit_in_bytes must be 0 \(unset\), -1 \(no limit\)/],
    [{ memoryLimitInBytes: 8 << 20, memorySwapLimitInBytes: 7 << 20 }, /memory_swap_limit_in_bytes \(7340032\) must not be below memory_limit_in_bytes \(8388608\)/],
    [{ oomScoreAdj: 1001 }, /oom_score_adj must be between -1000 and 1000, got 1001$/],
    [{ oomScoreAdj: '-1001' }, /oom_score_adj .* got -1001$/],
    [{ cpusetCpus: '0-999' }, /cpuset_cpus "0-999" names CPU 4, which this host does not have online \(online: 0,1,2,3\)$/],
    [{ cpusetCpus: '3-1' }, /cpuset_cpus "3-1": range 3-1 runs backwards/],
    [{ cpusetCpus: '0,,1' }, /cpuset_cpus "0,,1" is not a CPU list/],
    [{ cpusetMems: '1' }, /cpuset_mems "1" names memory node 1/],
    [{ hugepageLimits: [{ pageSize: '2MB', limit: '0' }, { pageSize: '1GB', limit: -1 }] }, /hugepage_limits\[1\]\.limit must be between 0 and 9007199254740991, got "-1"/],
  ])('refuses %j', (res, message) => {
    expect(check(res)).toMatch(message);
  });

  it('accepts unset values, -1 where it means no limit, the bounds themselves and online ids', () => {
    expect(check({})).toBeUndefined();
    expect(check({ cpuShares: '0', cpuQuota: '0', cpuPeriod: '0', memoryLimitInBytes: '0', oomScoreAdj: '0', cpusetCpus: '', cpusetMems: '' })).toBeUndefined();
    expect(check({ cpuShares: 2, cpuQuota: -1, cpuPeriod: 1_000_000, memorySwapLimitInBytes: -1, cpusetCpus: '0-1,3', cpusetMems: '0' })).toBeUndefined();
    expect(check({ cpuShares: '262144', cpuQuota: '17592186044415', cpuPeriod: 1000, memoryLimitInBytes: 6 << 20, oomScoreAdj: -1000 })).toBeUndefined();
    expect(check({ memoryLimitInBytes: String(Number.MAX_SAFE_INTEGER), memorySwapLimitInBytes: String(Number.MAX_SAFE_INTEGER) })).toBeUndefined();
    expect(check({ hugepageLimits: [{ pageSize: '2MB', limit: '1073741824' }] })).toBeUndefined();
  });

  it('leaves small pod memory values to the kernel (it judges them against the pod cgroup), but not negative ones', () => {
    expect(check({ memoryLimitInBytes: 65536 }, 'pod')).toBeUndefined();
    expect(check({ memoryLimitInBytes: -1 }, 'pod')).toMatch(/memory_limit_in_bytes must be 0 \(unset\) or between 1 and/);
  });
});

describe('exactInt', () => {
  it('keeps int64 values beyond 2^53 exact and refuses what is no integer', () => {
    expect(exactInt('9223372036854775807')).toBe(9223372036854775807n);
    expect(exactInt({ toString: () => '-9223372036854775808' })).toBe(-9223372036854775808n);
    expect(exactInt(undefined)).toBe(0n);
    expect(exactInt('')).toBe(0n);
    expect(exactInt(Number.NaN)).toBeUndefined();
    expect(exactInt('1e3')).toBeUndefined();
  });
});

describe('parseIdList', () => {
  it('reads sysfs online lists', () => {
    expect([...parseIdList('0-2,5\n')]).toEqual([0, 1, 2, 5]);
    expect([...parseIdList('0')]).toEqual([0]);
  });
});
