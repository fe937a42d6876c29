// Where a TTY exec's wall time goes: `go-cri-client exec -tty -- echo hi` against the daemon and
// against containerd 1.6 (interleaved rounds), with `strace -f -tt` attached to the runtime (the
// daemon; or containerd and its shims) and to the client. Events are printed in ms from the
// client's start: the client's connects and its reads of the streaming socket (the status, the
// close), the runtime's process calls (the helper or the shim's runc, runc init, the exec'd
// process), console hand-off (sendmsg/recvmsg) and socket accepts. strace slows what it traces:
// read the order and the gaps, not the totals.
// Usage: node bench/streams/run-trace.mjs [ROUNDS] [TARGETS]   (default 3 and isulats,containerd;
//        needs root, strace and the Go client; ISULATS_TTY_EXEC=conmon traces the conmon path;
//        BENCH_TRACE_CALLS=accept4,read,writev,... replaces the runtime's traced calls;
//        BENCH_TRACER=perf uses `perf trace -a` instead: far less slow-down, no client reads, and
//        every process of the host in the window, so read it by pid)
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { goToolPath, runGoCriClient } from '../../test/rig/go-tools.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';

const rounds = Number(process.argv[2] ?? 3);
const wanted = (process.argv[3] ?? 'isulats,containerd').split(',');
const RUNTIME_CALLS = process.env.BENCH_TRACE_CALLS ?? 'execve,clone,clone3,exit_group,wait4,connect,accept4,sendmsg,recvmsg';
const RUNTIME_EVENTS = new RegExp(`^(${RUNTIME_CALLS.split(',').join('|')})\\(|^\\+\\+\\+ exited`);
const CLIENT_EVENTS = /^(connect|exit_group|\+\+\+ exited)|^read\(\d+, ".*(Status|status|hi)/;

interface Target { name: string; endpoint: string; id: string; pids: () => Promise<number[]> }

/** containerd's shims for the containers of `dir`. */
async function shimPids(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const argv = (await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if ((argv[0] ?? '').includes('containerd-shim') && argv.some((a) => a.includes(dir))) pids.push(Number(name));
  }
  return pids;
}

/** strace lines of `file` as `ms-from-t0 pid call`, only those `keep` matches. */
async function timeline(file: string, t0: number, keep: RegExp, tag: string): Promise<Array<[number, string]>> {
  const day = new Date(t0);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  const out: Array<[number, string]> = [];
  for (const line of (await readFile(file, 'utf8').catch(() => '')).split('\n')) {
    const m = /^(\d+)\s+(\d+):(\d+):(\d+\.\d+)\s+(.*)$/.exec(line);
    if (!m || !keep.test(m[5]!) || / = -1 E(AGAIN|INPROGRESS)/.test(m[5]!)) continue;
    const ms = midnight + ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000 - t0;
    out.push([ms, `${tag} ${m[1]} ${m[5]!.slice(0, 140)}`]);
  }
  return out;
}

runBenchWithRig(async (rig) => {
  const bin = goToolPath('go-cri-client');
  const targets: Target[] = [];
  if (wanted.includes('isulats')) {
    const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
    rig.daemons.push(daemon);
    targets.push({ name: 'isulats', endpoint: daemon.endpoint, id: '', pids: async () => [daemon.pid] });
  }
  if (wanted.includes('containerd')) {
    const ctd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] });
    rig.containerd = ctd;
    targets.push({ name: 'containerd', endpoint: ctd.endpoint, id: '', pids: async () => [ctd.pid, ...(await shimPids(ctd.dir))] });
  }
  for (const t of targets) {
    const go = (args: string[]) => runGoCriClient(bin, ['-endpoint', t.endpoint, ...args]);
    if ((await go(['pull', '-image', rig.images.busybox])).code !== 0) throw new Error(`${t.name}: pull failed`);
    const r = await go(['run-pod-container', '-name', `tty-trace-${t.name}-${process.pid}`, '-label', 'tty-trace', '-image', rig.images.busybox, '--', 'sleep', '36000']);
    if (r.code !== 0) throw new Error(`${t.name}: run-pod-container: ${r.stderr.trim()}`);
    t.id = (JSON.parse(r.stdout) as { containerId: string }).containerId;
    // One untraced exec each, so first-use loading is not in the trace.
    await go(['exec', '-id', t.id, '-tty', '--', 'true']);
  }
  for (let i = 0; i < rounds; i++) {
    for (const t of i % 2 ? [...targets].reverse() : targets) {
      if (process.env.BENCH_TRACER === 'perf') {
        await perfRound(rig.dir, bin, t, i);
        continue;
      }
      const file = join(rig.dir, `strace-${t.name}-${i}.txt`);
      const clientFile = join(rig.dir, `strace-client-${t.name}-${i}.txt`);
      const attach = (await t.pids()).flatMap((p) => ['-p', String(p)]);
      const tracer = spawn('strace', ['-f', '-qq', '-tt', '-s', '48', '-e', `trace=${RUNTIME_CALLS}`, '-o', file, ...attach], { stdio: 'ignore' });
      await sleep(500);
      const t0 = Date.now();
      const out = await runGoCriClient('strace', ['-f', '-qq', '-tt', '-s', '48', '-e', 'trace=connect,read,exit_group', '-o', clientFile,
        bin, '-endpoint', t.endpoint, 'exec', '-id', t.id, '-tty', '--', 'echo', 'hi']);
      const wall = Date.now() - t0;
      await sleep(300);
      tracer.kill('SIGINT');
      await new Promise((resolve) => tracer.once('exit', resolve));
      console.log(`\n== ${t.name} round ${i}: client wall ${wall} ms (client traced too), exit ${out.code}, stdout ${JSON.stringify(out.stdout)}`);
      const events = [...await timeline(clientFile, t0, CLIENT_EVENTS, 'client '), ...await timeline(file, t0, RUNTIME_EVENTS, 'runtime')];
      for (const [ms, text] of events.sort((a, b) => a[0] - b[0])) console.log(`${ms.toFixed(1).padStart(8)} ${text}`);
    }
  }
});

const PERF_COMMS = /^(go-cri-client|ttyexec|runc|echo|containerd|node|exe)/;

/** One round under `perf trace -a`, printed in ms from the client's execve. */
async function perfRound(dir: string, bin: string, t: Target, i: number): Promise<void> {
  const file = join(dir, `perf-${t.name}-${i}.txt`);
  const tracer = spawn('perf', ['trace', '-T', '-a', '-e', 'execve,exit_group,connect,accept4,sendmsg,recvmsg,wait4', '-o', file], { stdio: 'ignore' });
  await sleep(1500);
  const t0 = Date.now();
  const out = await runGoCriClient(bin, ['-endpoint', t.endpoint, 'exec', '-id', t.id, '-tty', '--', 'echo', 'hi']);
  const wall = Date.now() - t0;
  await sleep(300);
  tracer.kill('SIGINT');
  await new Promise((resolve) => tracer.once('exit', resolve));
  console.log(`\n== ${t.name} round ${i}: client wall ${wall} ms, exit ${out.code}, stdout ${JSON.stringify(out.stdout)}`);
  const lines = (await readFile(file, 'utf8')).split('\n').map((l) => /^\s*(\d+\.\d+)\s+\(\s*[\d.]*\s*(?:ms)?\):\s+(\S+)\/(\d+)\s+(.*)$/.exec(l)).filter((m) => m !== null);
  const start = lines.find((m) => m[2]!.startsWith('go-cri-client') && m[4]!.startsWith('execve'));
  if (!start) return void console.log('no client execve in the trace');
  const base = Number(start[1]);
  for (const m of lines) {
    const ms = Number(m[1]) - base;
    if (ms < -2 || ms > wall + 20 || !PERF_COMMS.test(m[2]!) || / = -1 E(AGAIN|NOENT)/.test(m[4]!)) continue;
    console.log(`${ms.toFixed(1).padStart(8)} ${m[2]}/${m[3]} ${m[4]!.slice(0, 110)}`);
  }
}
