// Who is creating a pod or container: the record marked `creating` names its
// creator, and recovery undoes the creation once that creator is dead. A PID
// alone cannot say so: a killed daemon stays a zombie for seconds (PID 1 reaps
// slowly here), and a PID is reused after a reboot or by a daemon that is
// always PID 1 in its container. So the creator is its PID, its start time
// (/proc/<pid>/stat field 22, clock ticks since boot) and the boot id: a dead
// process cannot keep all three, and a zombie counts as dead.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface Creator {
  pid: number;
  /** /proc/<pid>/stat field 22; absent in records written before it was kept. */
  startTime?: string;
  bootId?: string;
}

interface ProcStat {
  state: string;
  startTime: string;
}

/** State (field 3) and start time (field 22) of /proc/<pid>/stat; the name (field 2) may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  if (!state || !startTime || !/^\d+$/.test(startTime)) return undefined;
  return { state, startTime };
}

let self: Creator | undefined;

/** This process as a creator. */
export function currentCreator(): Creator {
  if (!self) {
    const stat = parseProcStat(readFileSync(`/proc/${process.pid}/stat`, 'utf8'));
    self = { pid: process.pid, startTime: stat?.startTime, bootId: readBootId() };
  }
  return { ...self };
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The start time of a live process (zombies included), or undefined when there is no such PID. */
export async function processStartTime(pid: number): Promise<string | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return parseProcStat(text)?.startTime;
}

/**
 * True while the process that wrote `creator` still runs: same boot, a process at that PID that
 * is not a zombie, with the same start time. Fields a record lacks are not compared.
 */
export async function creatorAlive(creator: Creator): Promise<boolean> {
  if (!(creator.pid > 0)) return false;
  if (creator.bootId && creator.bootId !== currentCreator().bootId) return false;
  const stat = parseProcStat(await readFile(`/proc/${creator.pid}/stat`, 'utf8').catch(() => ''));
  if (!stat || stat.state === 'Z' || stat.state === 'X' || stat.state === 'x') return false;
  return !creator.startTime || creator.startTime === stat.startTime;
}
