// Processes each container CRI call spawns, isulats daemon against containerd 1.6: strace
// follows each daemon (containerd's shims included, since they are its descendants) and every
// execve is put down to the call whose window holds it (a call's window runs to the next call's
// start, so what a daemon does just after answering still counts). strace slows both: counts only.
// Usage: node bench/container-calls/run.mjs --procs   (needs root and strace)
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient, type RawCriClient } from '../../test/rig/cri-client.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { containerCalls, type CallWindow } from './script.js';

function startStrace(pid: number, out: string): Promise<ChildProcess> {
  const child = spawn('strace', ['-f', '-qq', '-ttt', '-v', '-s', '64', '-e', 'trace=execve', '-o', out, '-p', String(pid)], { stdio: 'ignore' });
  // strace attaches within a moment; give it time to reach every thread.
  return sleep(1500).then(() => child);
}

interface Exec { at: number; what: string }

const RUNC_COMMANDS = new Set(['create', 'start', 'kill', 'delete', 'state', 'exec', 'run', 'init', 'ps', 'update', 'pause', 'resume', 'events']);

/** `runc delete`, `conmon`, `containerd-shim-runc-v2 start`... from an execve line. */
function describe(path: string, argv: string[]): string {
  const base = path.split('/').pop()!;
  if (base === 'runc' || base === 'crun' || path === '/proc/self/exe') {
    const sub = argv.slice(1).find((a) => RUNC_COMMANDS.has(a));
    return `${path === '/proc/self/exe' ? 'runc' : base} ${sub ?? '?'}`;
  }
  if (base.startsWith('containerd-shim')) return `${base} ${argv.slice(1).find((a) => !a.startsWith('-') && ['start', 'delete'].includes(a)) ?? ''}`.trim();
  return base;
}

async function parseStrace(file: string): Promise<Exec[]> {
  const out: Exec[] = [];
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const m = /^\d+\s+(\d+\.\d+)\s+execve\("([^"]+)", \[(.*?)\](?:,|\.\.\.)/.exec(line);
    if (!m || / = -1 /.test(line)) continue;
    const argv = [...m[3]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => a[1]!);
    out.push({ at: Number(m[1]) * 1000, what: describe(m[2]!, argv) });
  }
  return out;
}

function attribute(execs: Exec[], windows: CallWindow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  windows.forEach((w, i) => {
    const end = windows[i + 1]?.start ?? Infinity;
    out.set(w.label, execs.filter((e) => e.at >= w.start && e.at < end).map((e) => e.what));
  });
  return out;
}

async function traced(name: string, pid: number, dir: string, endpoint: string, image: string): Promise<Map<string, string[]>> {
  const cri: RawCriClient = openCriClient(endpoint);
  const file = join(dir, `${name}.strace`);
  const strace = await startStrace(pid, file);
  try {
    const windows = await containerCalls(cri, image, name);
    await sleep(1000);
    return attribute(await parseStrace(file).finally(() => undefined), windows);
  } finally {
    strace.kill('SIGINT');
    await new Promise((r) => strace.once('exit', r));
    cri.close();
  }
}

function summary(list: string[]): string {
  const counts = new Map<string, number>();
  for (const w of list) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([w, n]) => (n > 1 ? `${n}× ${w}` : w)).join(', ') || '-';
}

runBenchWithRig(async (rig) => {
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  for (const endpoint of [daemon.endpoint, containerd.endpoint]) {
    const cri = openCriClient(endpoint);
    for (const image of [rig.images.busybox, rig.images.pause]) await cri.image('PullImage', { image: { image } }, 120_000);
    cri.close();
  }
  const ours = await traced('isulats', daemon.pid, rig.dir, daemon.endpoint, rig.images.busybox);
  const theirs = await traced('containerd', containerd.pid, rig.dir, containerd.endpoint, rig.images.busybox);
  console.log('| call | isulats | | containerd 1.6 | |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [label, list] of ours) {
    const other = theirs.get(label) ?? [];
    console.log(`| ${label} | ${list.length} | ${summary(list)} | ${other.length} | ${summary(other)} |`);
  }
});
