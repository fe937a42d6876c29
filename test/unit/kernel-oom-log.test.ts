// The kernel log records that tell an OOM kill of a container's process (kernel-oom-log.ts), in the
// forms Debian 12's 6.1 kernel prints, and a fixture /dev/kmsg read the way the device hands out
// records (one per read, EAGAIN at the end).
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isOomKillOf, KernelOomLog, kmsgTimeAt, parseKmsgRecord } from '../../src/runtime/oci/kernel-oom-log.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

const ID = 'c0ffee'.padEnd(64, '1');
const OTHER = 'beef'.padEnd(64, '2');
const q = { containerId: ID, pid: 4242, fromUs: 1_000_000, toUs: 9_000_000 };

const summary = (id: string, ts = 5_000_000) =>
  `6,812,${ts},-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=isulats-${id}.scope,mems_allowed=0,oom_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/isulats-${id}.scope,task_memcg=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod1.slice/isulats-${id}.scope,task=dd,pid=4250,uid=0\n`;
const killed = (pid: number, ts = 5_000_000) =>
  `3,813,${ts},-;Memory cgroup out of memory: Killed process ${pid} (dd) total-vm:22856kB, anon-rss:14928kB, file-rss:4kB, shmem-rss:0kB, UID:0 pgtables:72kB oom_score_adj:1000\n SUBSYSTEM=memory\n`;

describe('kernel OOM log', () => {
  it('parses a kmsg record: timestamp and first line', () => {
    expect(parseKmsgRecord(killed(4242))).toEqual({ tsUs: 5_000_000, message: expect.stringMatching(/^Memory cgroup out of memory: Killed process 4242 \(dd\) .*oom_score_adj:1000$/) });
    expect(parseKmsgRecord('garbage')).toBeUndefined();
  });

  it("matches the init's kill by pid, any victim's by the container's cgroup, within the container's run", () => {
    expect(isOomKillOf(parseKmsgRecord(killed(4242))!, q)).toBe(true);
    expect(isOomKillOf(parseKmsgRecord(killed(4243))!, q)).toBe(false);
    expect(isOomKillOf(parseKmsgRecord(killed(4242, 500_000))!, q)).toBe(false); // before the start: another process on that pid
    expect(isOomKillOf(parseKmsgRecord(`3,1,5000000,-;Out of memory: Killed process 4242 (dd) total-vm:1kB\n`)!, q)).toBe(true); // the node's OOM
    expect(isOomKillOf(parseKmsgRecord(summary(ID))!, q)).toBe(true);
    expect(isOomKillOf(parseKmsgRecord(summary(OTHER))!, q)).toBe(false);
    expect(isOomKillOf(parseKmsgRecord(`6,9,5000000,-;oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/isulats/${ID},task_memcg=/isulats/${OTHER},task=sh,pid=1,uid=0\n`)!, q)).toBe(false); // the limit of an ancestor named after the id, another victim
    expect(isOomKillOf(parseKmsgRecord(`6,9,5000000,-;oom-kill:constraint=CONSTRAINT_NONE,task_memcg=/isulats/${ID},task=sh,pid=1,uid=0\n`)!, q)).toBe(true); // cgroupfs path
    expect(isOomKillOf(parseKmsgRecord('6,10,5000000,-;systemd[1]: Started isulats.service\n')!, q)).toBe(false);
  });

  it('scans a file standing in for the device, keeps the kills it saw, and answers false where it cannot read', async () => {
    const dir = await makeTempDir('ist-kmsg-');
    try {
      // A regular file gives its whole text in one read (the first record), then end of file.
      const file = join(dir, 'kmsg');
      writeFileSync(file, summary(ID));
      const log = new KernelOomLog(file);
      expect(log.shows(q)).toBe(true);
      expect(log.shows({ ...q, containerId: OTHER })).toBe(false);
      expect(log.shows(q)).toBe(true); // remembered: the second scan read nothing new
      log.close();
      expect(new KernelOomLog(join(dir, 'missing')).shows(q)).toBe(false);
    } finally {
      await removeTempDir(dir);
    }
  });

  it("converts a wall-clock time to the kmsg clock through this process's monotonic clock", () => {
    expect(kmsgTimeAt(10_000, 12_000, 5_000_000_000n)).toBe(3_000_000);
  });
});
