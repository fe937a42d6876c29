// Where a TTY exec's wall time goes: one `go-cri-client exec -tty -- echo hi` against the daemon
// with `strace -f -tt` attached to it (process calls, connect/accept, fd passing), the trace's
// events printed in ms from the client's start. Usage: node bench/streams/run-trace.mjs [ROUNDS]
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { goToolPath, runGoCriClient } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';

const rounds = Number(process.argv[2] ?? 3);

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause, env: { TTYDBG: '1' } });
  rig.daemons.push(daemon);
  const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', daemon.endpoint, ...args]);
  if ((await go(['pull', '-image', rig.images.busybox])).code !== 0) throw new Error('pull');
  const r = await go(['run-pod-container', '-name', `tty-trace-${process.pid}`, '-label', 'tty-trace', '-image', rig.images.busybox, '--', 'sleep', '36000']);
  const id = (JSON.parse(r.stdout) as { containerId: string }).containerId;
  if (process.env.NO_STRACE) {
    const walls: Record<string, number[]> = { tty: [], plain: [] };
    for (let i = 0; i < rounds; i++) {
      for (const k of ['tty', 'plain']) {
        const t0 = Date.now();
        await go(['exec', '-id', id, ...(k === 'tty' ? ['-tty'] : []), '--', 'echo', 'hi']);
        walls[k]!.push(Date.now() - t0);
      }
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    console.log(`tty ${med(walls.tty!)} plain ${med(walls.plain!)}`, JSON.stringify(walls));
    if (process.env.FLOOR_PY) {
      const { spawnSync } = await import('node:child_process');
      console.log(spawnSync('python3', [process.env.FLOOR_PY, join(daemon.state, 'runc'), id, String(rounds), join(daemon.root, 'containers', id, 'bundle', 'config.json')], { encoding: 'utf8' }).output.join(''));
    }
    if (process.env.SHOW_LOG) console.log((await readFile(daemon.logPath, 'utf8')).split('\n').filter((l) => l.includes('TTYDBG')).join('\n'));
    return;
  }
  for (let i = 0; i < rounds; i++) {
    const file = join(rig.dir, `strace-${i}.txt`);
    const tracer = spawn('strace', ['-f', '-qq', '-tt', '-e', 'trace=execve,clone,clone3,exit_group,wait4,connect,accept4,sendmsg,recvmsg', '-o', file, '-p', String(daemon.pid)], { stdio: 'ignore' });
    await sleep(500);
    const t0 = Date.now();
    const out = await go(['exec', '-id', id, '-tty', '--', 'echo', 'hi']);
    const wall = Date.now() - t0;
    await sleep(300);
    tracer.kill('SIGINT');
    await new Promise((res) => tracer.once('exit', res));
    console.log(`round ${i}: client wall ${wall} ms, exit ${out.code}, stdout ${JSON.stringify(out.stdout)}`);
    const day = new Date(t0);
    const base = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      const m = /^(\d+)\s+(\d+):(\d+):(\d+\.\d+)\s+(.*)$/.exec(line);
      if (!m) continue;
      const ms = base + ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000 - t0;
      const what = m[5]!;
      if (/^(execve|exit_group|connect|accept4|sendmsg|recvmsg|wait4|clone)/.test(what) && !/EAGAIN|resumed>.*= -1 E/.test(what))
        console.log(`${ms.toFixed(1).padStart(8)} ${m[1]} ${what.slice(0, 150)}`);
    }
  }
});
