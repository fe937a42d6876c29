// The benches' load mode: busy loops holding every CPU, as pods that use their CPU do. Plain
// processes in this bench's cgroup (no cpu.shares of their own), 2 per CPU by default, so the
// runtime under test competes for each CPU with at least two runnable loops; stopped by PID.
import { spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';

export interface CpuLoad {
  loops: number;
  stop(): Promise<void>;
}

/** Starts `loops` busy loops (default 2 per CPU); BENCH_LOAD_LOOPS overrides the count. */
export function startCpuLoad(loops = Number(process.env.BENCH_LOAD_LOOPS ?? 2 * availableParallelism())): CpuLoad {
  const children: ChildProcess[] = [];
  for (let i = 0; i < loops; i++) {
    children.push(spawn('/bin/sh', ['-c', 'while :; do :; done'], { stdio: 'ignore' }));
  }
  return {
    loops,
    async stop() {
      await Promise.all(children.map((c) => new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      })));
    },
  };
}
