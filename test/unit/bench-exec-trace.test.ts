// bench/daemon's attribution of strace's execve events to CRI calls (pure parsing, on lines
// shaped as strace 6.1 writes them with -f -ttt -o FILE).
import { describe, expect, it } from 'vitest';
import { attribute, describeExecs, execName, parseExecs } from '../../bench/daemon/exec-trace.js';

const TRACE = [
  '27184 1796165662.499659 execve("/usr/lib/cni/bridge", ["/usr/lib/cni/bridge"], 0xc000422b00 /* 42 vars */) = 0',
  // A PATH search: failed attempts are not processes.
  '27190 1796165662.600000 execve("/usr/local/sbin/runc", ["runc", "--root", "/run/x", "create"], 0x7ffd /* 9 vars */) = -1 ENOENT (No such file or directory)',
  '27190 1796165662.600100 execve("/usr/sbin/runc", ["runc", "--root", "/run/x", "create"], 0x7ffd /* 9 vars */) = 0',
  // Split by another thread's event in between.
  '27195 1796165662.616969 execve("/usr/lib/cni/host-local", ["/usr/lib/cni/host-local"], 0xc00009e580 /* 42 vars */ <unfinished ...>',
  '27196 1796165662.617000 execve("/proc/self/exe", ["runc", "init"], 0xc00022a080 /* 7 vars */) = 0',
  '27195 1796165662.617597 <... execve resumed>) = 0',
  '27197 1796165662.700000 execve("/usr/bin/missing", ["missing"], 0x1 /* 1 vars */ <unfinished ...>',
  '27197 1796165662.700100 <... execve resumed>) = -1 ENOENT (No such file or directory)',
  '27244 1796165663.342558 execve("/usr/bin/conmon", ["/usr/bin/conmon", "--api-version", "1"], 0xc0 /* 7 vars */) = 0',
  '27250 1796165663.500000 +++ exited with 0 +++',
].join('\n');

describe('bench exec trace', () => {
  it('keeps successful execs only, resumed ones at their start time, runc init by argv', () => {
    expect(parseExecs(TRACE)).toEqual([
      { pid: 27184, t: 1796165662.499659, name: 'bridge' },
      { pid: 27190, t: 1796165662.6001, name: 'runc' },
      { pid: 27196, t: 1796165662.617, name: 'runc init' },
      { pid: 27195, t: 1796165662.616969, name: 'host-local' },
      { pid: 27244, t: 1796165663.342558, name: 'conmon' },
    ]);
  });

  it('names crun init, the crun-hybrid shim and the crun it execs by file name', () => {
    expect(execName('/proc/self/exe', '"crun", "init"')).toBe('crun init');
    expect(execName('/opt/isulats/build/crun-hybrid/crun-hybrid', '"/opt/isulats/build/crun-hybrid/crun-hybrid", "--root", "/r", "create"')).toBe('crun-hybrid');
    expect(execName('/usr/bin/crun', '"/usr/bin/crun", "--root", "/r", "create"')).toBe('crun');
  });

  it('gives each call the execs from its start to the next call\'s start', () => {
    const calls = [
      { call: 'RunPodSandbox', ms: 150, start: 1796165662.4, end: 1796165662.55 },
      { call: 'StartContainer', ms: 10, start: 1796165663.3, end: 1796165663.31 },
    ];
    const rows = attribute(parseExecs(TRACE), calls);
    expect(rows).toEqual([
      { call: 'RunPodSandbox', execs: ['bridge', 'runc', 'runc init', 'host-local'] },
      { call: 'StartContainer', execs: ['conmon'] },
    ]);
    expect(describeExecs(rows[0]!.execs)).toBe('bridge, host-local, runc, runc init');
    expect(describeExecs(['runc', 'conmon', 'runc'])).toBe('runc×2, conmon');
    expect(describeExecs([])).toBe('—');
  });
});
