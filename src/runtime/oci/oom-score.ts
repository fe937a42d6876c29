import { readFileSync } from 'node:fs';

// Without CAP_SYS_RESOURCE a process cannot lower its oom_score_adj; runc then
// fails with "can't get final child's PID from pipe". Never ask for less than
// what this process already has.
let floor: number | undefined;

export function hostOomScoreFloor(): number {
  if (floor === undefined) {
    try {
      floor = Number.parseInt(readFileSync('/proc/self/oom_score_adj', 'utf8').trim(), 10) || 0;
    } catch {
      floor = 0;
    }
  }
  return floor;
}

export function clampOomScoreAdj(wanted: number, hostFloor = hostOomScoreFloor()): number {
  return Math.min(1000, Math.max(wanted, hostFloor));
}
