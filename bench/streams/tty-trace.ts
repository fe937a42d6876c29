// Where a TTY exec's wall time goes: `go-cri-client exec -tty -- echo hi` against the daemon with
// `strace -f -tt` attached to it (process calls, socket connects and accepts: the monitor's
// start, runc, runc init, the console hand-off, the exit), events printed in ms from the client's
// start. strace slows what it traces: read the order and the gaps, not the totals.
// Usage: node bench/streams/run-trace.mjs [ROUNDS]   (needs root, strace and the Go client;
//        ISULATS_TTY_EXEC=conmon traces the conmon path instead)
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { goToolPath, runGoCriClient } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';

const rounds = Number(process.argv[2] ?? 3);
const EVENTS = /^(execve|exit_group|connect|accept4|wait4|clone\()/;

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon.endpoint, ...args]);
  if ((await go(['pull', '-image', rig.images.busybox])).code !== 0) throw new Error('pull failed');
  const r = await go(['run-pod-container', '-name', `tty-trace-${process.pid}`, '-label', 'tty-trace', '-image', rig.images.busybox, '--', 'sleep', '36000']);
  if (r.code !== 0) throw new Error(`run-pod-container: ${r.stderr.trim()}`);
  const id = (JSON.parse(r.stdout) as { containerId: string }).containerId;
  for (let i = 0; i < rounds; i++) {
    const file = join(rig.dir, `strace-${i}.txt`);
    const tracer = spawn('strace', ['-f', '-qq', '-tt', '-e', 'trace=execve,clone,exit_group,wait4,connect,accept4', '-o', file, '-p', String(daemon.pid)], { stdio: 'ignore' });
    await sleep(500);
    const t0 = Date.now();
    const out = await go(['exec', '-id', id, '-tty', '--', 'echo', 'hi']);
    const wall = Date.now() - t0;
    await sleep(300);
    tracer.kill('SIGINT');
    await new Promise((resolve) => tracer.once('exit', resolve));
    console.log(`round ${i}: client wall ${wall} ms, exit ${out.code}, stdout ${JSON.stringify(out.stdout)}`);
    const day = new Date(t0);
    const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      const m = /^(\d+)\s+(\d+):(\d+):(\d+\.\d+)\s+(.*)$/.exec(line);
      if (!m || !EVENTS.test(m[5]!) || / = -1 E/.test(m[5]!)) continue;
      const ms = midnight + ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000 - t0;
      console.log(`${ms.toFixed(1).padStart(8)} ${m[1]} ${m[5]!.slice(0, 150)}`);
    }
  }
});
