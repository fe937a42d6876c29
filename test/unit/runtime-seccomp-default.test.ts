// The RuntimeDefault profile as containerd 1.7 builds it: an allow-list, EPERM for the rest,
// clone without namespace flags and clone3 ENOSYS unless CAP_SYS_ADMIN, personality values,
// and syscalls unlocked by the capabilities of the bounding set. The comparison with the spec a
// real containerd 1.7 writes is test/integration/daemon-seccomp-containerd.test.ts.
import { describe, expect, it } from 'vitest';
import { kernelAtLeast, runtimeDefaultSeccomp, type SeccompSyscallRule } from '../../src/runtime/container/seccomp-default.js';
import { CAPABILITY_ALLOWED } from '../../src/runtime/container/seccomp-default-data.js';
import { capabilities } from '../../src/runtime/container/spec.js';

/** containerd's default capability set (what a container gets without add/drop). */
const DEFAULT_CAPS = capabilities();
const X64 = { arch: 'x64', kernelRelease: '6.1.0-18-amd64' };

const rulesFor = (rules: SeccompSyscallRule[], name: string): SeccompSyscallRule[] => rules.filter((r) => r.names.includes(name));
/** Allowed without conditions by some rule. */
const allowedOutright = (rules: SeccompSyscallRule[], name: string): boolean =>
  rulesFor(rules, name).some((r) => r.action === 'SCMP_ACT_ALLOW' && !r.args);

describe('runtimeDefaultSeccomp', () => {
  it('denies by default with EPERM, on the x86 family of architectures', () => {
    const p = runtimeDefaultSeccomp({ capabilities: DEFAULT_CAPS, ...X64 });
    expect(p.defaultAction).toBe('SCMP_ACT_ERRNO');
    expect(p.defaultErrnoRet).toBe(1);
    expect(p.architectures).toEqual(['SCMP_ARCH_X86_64', 'SCMP_ARCH_X86', 'SCMP_ARCH_X32']);
    expect(runtimeDefaultSeccomp({ capabilities: [], arch: 'arm64' }).architectures).toEqual(['SCMP_ARCH_ARM', 'SCMP_ARCH_AARCH64']);
  });

  it('with the default capabilities: clone only without namespace flags, clone3 ENOSYS, no namespace or mount calls', () => {
    const { syscalls } = runtimeDefaultSeccomp({ capabilities: DEFAULT_CAPS, ...X64 });
    expect(rulesFor(syscalls, 'clone')).toEqual([
      { names: ['clone'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 0x7e020000, op: 'SCMP_CMP_MASKED_EQ' }] },
    ]);
    expect(rulesFor(syscalls, 'clone3')).toEqual([{ names: ['clone3'], action: 'SCMP_ACT_ERRNO', errnoRet: 38 }]);
    for (const name of ['unshare', 'setns', 'mount', 'umount2', 'fsopen', 'fsmount', 'open_tree', 'keyctl', 'add_key', 'bpf', 'perf_event_open', 'init_module', 'kexec_load', 'reboot', 'userfaultfd', 'open_by_handle_at']) {
      expect(rulesFor(syscalls, name), name).toEqual([]);
    }
    // CAP_SYS_CHROOT is in the default set.
    expect(allowedOutright(syscalls, 'chroot')).toBe(true);
    for (const name of ['read', 'execve', 'io_uring_setup', 'arch_prctl', 'ptrace', 'name_to_handle_at']) expect(allowedOutright(syscalls, name), name).toBe(true);
  });

  it('lifts the clone rules and allows mount, unshare, setns and the new mount API with CAP_SYS_ADMIN', () => {
    const { syscalls } = runtimeDefaultSeccomp({ capabilities: [...DEFAULT_CAPS, 'CAP_SYS_ADMIN'], ...X64 });
    expect(rulesFor(syscalls, 'clone').every((r) => !r.args)).toBe(true);
    expect(rulesFor(syscalls, 'clone3').every((r) => r.action === 'SCMP_ACT_ALLOW')).toBe(true);
    for (const name of ['clone', 'clone3', 'unshare', 'setns', 'mount', 'fsopen', 'bpf', 'sethostname']) expect(allowedOutright(syscalls, name), name).toBe(true);
    expect(rulesFor(syscalls, 'keyctl')).toEqual([]);
  });

  it('allows personality only for the values libc and setarch use, and socket for every family but vsock', () => {
    const { syscalls } = runtimeDefaultSeccomp({ capabilities: [], ...X64 });
    const values = rulesFor(syscalls, 'personality').map((r) => {
      expect(r.args).toHaveLength(1);
      expect(r.args![0]).toMatchObject({ index: 0, op: 'SCMP_CMP_EQ' });
      return r.args![0]!.value;
    });
    expect(values).toEqual([0x0, 0x8, 0x20000, 0x20008, 0xffffffff]);
    expect(rulesFor(syscalls, 'socket')).toEqual([{ names: ['socket'], action: 'SCMP_ACT_ALLOW', args: [{ index: 0, value: 40, op: 'SCMP_CMP_NE' }] }]);
  });

  it.each(Object.entries(CAPABILITY_ALLOWED))('unlocks the syscalls of %s only with it', (cap, names) => {
    const without = runtimeDefaultSeccomp({ capabilities: [], ...X64, kernelRelease: '4.4.0' }).syscalls;
    const withCap = runtimeDefaultSeccomp({ capabilities: [cap], ...X64, kernelRelease: '4.4.0' }).syscalls;
    for (const name of names) {
      expect(allowedOutright(without, name), `${name} without ${cap}`).toBe(false);
      expect(allowedOutright(withCap, name), `${name} with ${cap}`).toBe(true);
    }
  });

  it('allows ptrace and process_vm_* to everyone from kernel 4.8 (seccomp rechecks traced syscalls), only with CAP_SYS_PTRACE before', () => {
    for (const name of ['ptrace', 'process_vm_readv', 'process_vm_writev']) {
      expect(allowedOutright(runtimeDefaultSeccomp({ capabilities: [], arch: 'x64', kernelRelease: '4.8.0' }).syscalls, name)).toBe(true);
      expect(allowedOutright(runtimeDefaultSeccomp({ capabilities: [], arch: 'x64', kernelRelease: '4.7.10' }).syscalls, name)).toBe(false);
      expect(allowedOutright(runtimeDefaultSeccomp({ capabilities: [], arch: 'x64', kernelRelease: 'unknown' }).syscalls, name)).toBe(false);
    }
    expect(kernelAtLeast('6.18.44-fc-v1300', 4, 8)).toBe(true);
    expect(kernelAtLeast('4.10.0', 4, 8)).toBe(true);
  });

  it("reads clone's flags from the second argument on s390x and answers ENOSYS in mips's numbering", () => {
    expect(rulesFor(runtimeDefaultSeccomp({ capabilities: [], arch: 's390x' }).syscalls, 'clone')[0]!.args![0]!.index).toBe(1);
    expect(rulesFor(runtimeDefaultSeccomp({ capabilities: [], arch: 'mips64el' }).syscalls, 'clone3')[0]!.errnoRet).toBe(89);
  });

  it('adds the architecture’s own syscalls', () => {
    expect(allowedOutright(runtimeDefaultSeccomp({ capabilities: [], arch: 'arm64' }).syscalls, 'set_tls')).toBe(true);
    expect(allowedOutright(runtimeDefaultSeccomp({ capabilities: [], arch: 'arm64' }).syscalls, 'arch_prctl')).toBe(false);
  });

  it('returns a fresh profile each call (a caller or NRI may change it)', () => {
    const a = runtimeDefaultSeccomp({ capabilities: [], ...X64 });
    a.syscalls[0]!.names.push('kexec_load');
    a.syscalls[1]!.args![0]!.value = 0;
    const b = runtimeDefaultSeccomp({ capabilities: [], ...X64 });
    expect(b.syscalls[0]!.names).not.toContain('kexec_load');
    expect(b.syscalls[1]!.args![0]!.value).toBe(40);
  });
});
