// runc's warnings stay out of the error a failed create reports.
import { describe, expect, it } from 'vitest';
import { splitRuncWarnings } from '../../src/runtime/oci/runc-warnings.js';

// conmon's sync message for a create that runc refused, as conmon 2.1 joins runc's stderr.
const CONMON_MESSAGE =
  'time="2026-12-01T20:29:00Z" level=warning msg="cannot toggle freezer: cgroups not configured for container"; ' +
  'time="2026-12-01T20:29:00Z" level=warning msg="cannot toggle freezer: cgroups not configured for container"; ' +
  'time="2026-12-01T20:29:00Z" level=warning msg="lstat : no such file or directory"; ' +
  'time="2026-12-01T20:29:00Z" level=error msg="runc create failed: unable to start container process: error during container init: ' +
  'error setting cgroup config for procHooks process: failed to write \\"1\\": write /sys/fs/cgroup/cpu/p/c/cpu.cfs_period_us: invalid argument";';

describe('splitRuncWarnings', () => {
  it('keeps the error message of conmon\'s "; "-joined runc output and moves the warnings aside', () => {
    expect(splitRuncWarnings(CONMON_MESSAGE)).toEqual({
      text: 'runc create failed: unable to start container process: error during container init: error setting cgroup config for procHooks process: failed to write "1": write /sys/fs/cgroup/cpu/p/c/cpu.cfs_period_us: invalid argument',
      warnings: ['cannot toggle freezer: cgroups not configured for container', 'cannot toggle freezer: cgroups not configured for container', 'lstat : no such file or directory'],
    });
  });

  it('reads newline-separated output, keeps plain lines, and keeps warnings when nothing else is said', () => {
    expect(splitRuncWarnings('time="t" level=warning msg="w1"\nexec failed: no such file\n')).toEqual({ text: 'exec failed: no such file', warnings: ['w1'] });
    expect(splitRuncWarnings('time="t" level=warning msg="only this"')).toEqual({ text: 'only this', warnings: [] });
    expect(splitRuncWarnings('')).toEqual({ text: '', warnings: [] });
  });
});
