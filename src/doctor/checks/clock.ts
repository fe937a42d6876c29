// Clock sanity: certificates (registries, kubelet) and image timestamps go
// wrong when the clock is far off. A clock before this build or decades ahead
// is wrong for sure; NTP state says whether it is kept right.
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface ClockFacts {
  now: Date;
  /** A time the clock cannot be before (this code's release). */
  floor: Date;
  /** From /run/systemd/timesync/synchronized or timedatectl; undefined when unknown. */
  ntpSynchronized?: boolean;
}

export const CLOCK_FLOOR = new Date('2026-01-01T00:00:00Z');
const MAX_AHEAD_MS = 20 * 365 * 24 * 3600 * 1000;

export function evaluateClock(f: ClockFacts): CheckResult {
  const title = 'clock';
  const iso = f.now.toISOString();
  if (f.now.getTime() < f.floor.getTime()) return fail('clock', title, `${iso} is before ${f.floor.toISOString().slice(0, 10)}`, 'set the time (timedatectl set-ntp true, or date -s)');
  if (f.now.getTime() > f.floor.getTime() + MAX_AHEAD_MS) return fail('clock', title, `${iso} is decades ahead`, 'set the time (timedatectl set-ntp true, or date -s)');
  if (f.ntpSynchronized === false) return warn('clock', title, `${iso}, not NTP-synchronized`, 'timedatectl set-ntp true');
  return ok('clock', title, `${iso}${f.ntpSynchronized ? ', NTP-synchronized' : ''}`);
}
