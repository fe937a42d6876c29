// The execsync helper's plan: what of runc's state and the exec's process goes in it, and every
// setting the helper cannot apply sends the exec to runc instead (never a silent skip).
import { describe, expect, it } from 'vitest';
import { execSyncPlan, type ExecSyncPlanInput, type RuncState } from '../../src/runtime/exec/exec-sync-plan.js';

const state = (config: Partial<RuncState['config']> = {}): RuncState => ({
  init_process_pid: 4242,
  init_process_start: 99,
  cgroup_paths: { cpu: '/sys/fs/cgroup/cpu,cpuacct/pod/c', cpuacct: '/sys/fs/cgroup/cpu,cpuacct/pod/c', memory: '/sys/fs/cgroup/memory/pod/c', '': '/sys/fs/cgroup/unified/pod/c' },
  config: { namespaces: [{ type: 'NEWPID' }, { type: 'NEWNS' }, { type: 'NEWNET', path: '/var/run/netns/x' }], oom_score_adj: -10, ...config },
});

const input = (over: Partial<ExecSyncPlanInput> = {}): ExecSyncPlanInput => ({
  containerId: 'c1',
  state: state(),
  process: {
    terminal: false,
    user: { uid: 1000, gid: 1001, additionalGids: [10, 20] },
    args: ['sh', '-c', 'echo hi'],
    env: ['PATH=/bin', 'A=b=c'],
    cwd: '/work',
    capabilities: { bounding: ['CAP_CHOWN', 'CAP_KILL', 'CAP_NOPE'], effective: ['CAP_KILL'], permitted: ['CAP_KILL', 'CAP_CHECKPOINT_RESTORE'], inheritable: [], ambient: [] },
    noNewPrivileges: true,
    rlimits: [{ type: 'RLIMIT_NOFILE', soft: 512, hard: 1024 }],
  },
  pidFile: '/run/x/c1/exec-1.pid',
  lastCap: 39,
  ...over,
});

function records(plan: Buffer): Array<[string, string]> {
  const parts = plan.toString().split('\0');
  expect(parts.pop()).toBe('');
  const out: Array<[string, string]> = [];
  for (let i = 0; i < parts.length; i += 2) out.push([parts[i]!, parts[i + 1]!]);
  return out;
}

describe('execSyncPlan', () => {
  it('carries runc state and the process in the helper order', () => {
    const r = execSyncPlan(input());
    if (!('plan' in r)) throw new Error(r.fallback);
    expect(records(r.plan)).toEqual([
      ['pid', '4242'],
      ['ns', 'pid'],
      ['ns', 'mnt'],
      ['ns', 'net'],
      ['cgroup', '/sys/fs/cgroup/cpu,cpuacct/pod/c/cgroup.procs'],
      ['cgroup', '/sys/fs/cgroup/memory/pod/c/cgroup.procs'],
      ['cgroup', '/sys/fs/cgroup/unified/pod/c/cgroup.procs'],
      ['pidfile', '/run/x/c1/exec-1.pid'],
      ['oom', '-10'],
      ['rlimit', '7 512 1024'],
      ['keyring', '_ses.c1'],
      ['nnp', '1'],
      // CAP_NOPE is unknown and CAP_CHECKPOINT_RESTORE (40) beyond the kernel's last: left out, as runc does.
      ['caps', '21 20 20 0 0'],
      ['uid', '1000'],
      ['gid', '1001'],
      ['group', '10'],
      ['group', '20'],
      ['cwd', '/work'],
      ['env', 'PATH=/bin'],
      ['env', 'A=b=c'],
      ['arg', 'sh'],
      ['arg', '-c'],
      ['arg', 'echo hi'],
    ]);
  });

  it('keeps RLIM_INFINITY from the JSON spec as 2^64 - 1', () => {
    const spec = JSON.parse('[{"type":"RLIMIT_CORE","soft":18446744073709551615,"hard":18446744073709551615}]') as unknown[];
    const r = execSyncPlan(input({ process: { ...input().process, rlimits: spec } }));
    if (!('plan' in r)) throw new Error(r.fallback);
    expect(records(r.plan)).toContainEqual(['rlimit', '4 18446744073709551615 18446744073709551615']);
  });

  it('copies the seccomp filter and honours no_new_keyring', () => {
    const r = execSyncPlan(input({ state: state({ seccomp: { defaultAction: 2 }, no_new_keyring: true, oom_score_adj: null }), seccompFilter: Buffer.from('0600000000000000', 'hex') }));
    if (!('plan' in r)) throw new Error(r.fallback);
    const keys = records(r.plan).map(([k]) => k);
    expect(keys).not.toContain('keyring');
    expect(keys).not.toContain('oom');
    expect(records(r.plan)).toContainEqual(['seccomp', '0600000000000000']);
  });

  it.each<[string, Partial<ExecSyncPlanInput>]>([
    ['an AppArmor profile', { process: { ...input().process, apparmorProfile: 'p' } }],
    ['an SELinux label', { process: { ...input().process, selinuxLabel: 'system_u:system_r:container_t:s0' } }],
    ['process.ioPriority', { process: { ...input().process, ioPriority: { class: 'IOPRIO_CLASS_IDLE' } } }],
    ['an AppArmor profile', { state: state({ app_armor_profile: 'container-default' }) }],
    ['an SELinux label', { state: state({ process_label: 'system_u:system_r:container_t:s0' }) }],
    ['a rootless container', { state: state({ rootless_euid: true }) }],
    ['an Intel RDT group', { state: { ...state(), intel_rdt_path: '/sys/fs/resctrl/c1' } }],
    ['a terminal', { process: { ...input().process, terminal: true } }],
    ['no process.capabilities', { process: { ...input().process, capabilities: undefined } }],
    ['rlimit RLIMIT_BOGUS', { process: { ...input().process, rlimits: [{ type: 'RLIMIT_BOGUS', soft: 1, hard: 1 }] } }],
    ['a seccomp listener', { state: state({ seccomp: { listenerPath: '/run/agent.sock' } }), seccompFilter: Buffer.alloc(8) }],
    ['seccomp filter flags', { state: state({ seccomp: { flags: ['SECCOMP_FILTER_FLAG_SPEC_ALLOW'] } }), seccompFilter: Buffer.alloc(8) }],
    ['no copy of the seccomp filter', { state: state({ seccomp: { defaultAction: 2 } }) }],
    ['a user namespace', { state: state({ namespaces: [{ type: 'NEWUSER' }, { type: 'NEWPID' }] }) }],
    ['namespace NEWTIME', { state: state({ namespaces: [{ type: 'NEWTIME' }] }) }],
    ['a NUL byte in the process', { process: { ...input().process, env: ['A=\0'] } }],
  ])('sends the exec to runc for %s', (reason, over) => {
    expect(execSyncPlan(input(over))).toEqual({ fallback: reason });
  });
});
