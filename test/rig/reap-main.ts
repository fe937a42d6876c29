// Entry point of the detached reaper that global setup launches when vitest is interrupted
// (SIGINT/SIGTERM end vitest before any global teardown runs). Args: PID of the run to outlive,
// and this file's own bundle path to delete when done.
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { pidAlive } from './proc.js';
import { reapStaleRigs } from './stale-rigs.js';

const [waitPid, bundlePath] = process.argv.slice(2);
for (let i = 0; i < 300 && (await pidAlive(Number(waitPid))); i++) await sleep(100);
await reapStaleRigs().catch(() => undefined);
if (bundlePath) await rm(bundlePath, { force: true });
