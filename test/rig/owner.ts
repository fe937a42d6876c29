import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Who made a rig dir, so a later run can tell a live rig from one whose owner died. */
export interface OwnerRecord<T> {
  ownerPid: number;
  /** Kernel start time of the owner (clock ticks), to see through PID reuse. */
  ownerStart: string;
  data: T;
}

const FILE = 'owner.json';

/** Start time of a process from /proc/PID/stat (field 22), or undefined if it is gone. */
export async function processStart(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

export async function writeOwner<T>(dir: string, data: T): Promise<void> {
  const record: OwnerRecord<T> = { ownerPid: process.pid, ownerStart: (await processStart(process.pid)) ?? '', data };
  await writeFile(join(dir, FILE), JSON.stringify(record));
}

export async function readOwner<T>(dir: string): Promise<OwnerRecord<T> | undefined> {
  const text = await readFile(join(dir, FILE), 'utf8').catch(() => undefined);
  return text ? (JSON.parse(text) as OwnerRecord<T>) : undefined;
}

/** True while the process that wrote the record still runs. */
export async function ownerAlive(record: OwnerRecord<unknown>): Promise<boolean> {
  return (await processStart(record.ownerPid)) === record.ownerStart;
}
