// The daemon's process settings. Node.js takes V8's heap sizes only on its
// command line (v8.setFlagsFromString is too late: the heap is configured) and
// glibc reads MALLOC_ARENA_MAX only when the process starts, so `isulats daemon`
// runs itself again once, before it opens anything: execve(2) keeps the PID
// (systemd's MainPID, the pid file) and the argv, adding
// - --max-semi-space-size=1: under a burst of requests V8 grows the young
//   generation to 2 x 16 MiB and keeps it committed (~25 MB of RSS with 50 pods);
// - --optimize-for-size: smaller heap growth steps;
// - --no-opt and --no-maglev: no optimizing compiler (its code in the node binary is then never
//   paged in, and no optimized code is kept), while V8's baseline compiler (Sparkplug) still runs
//   hot functions as machine code. The daemon ran under --lite-mode before, which also turns
//   Sparkplug off (it implies --jitless): every function, Node's own http2 and fs wrappers
//   included, stayed interpreted, and a ListContainers of 20 pods cost 1.2-1.6 ms of CPU against
//   containerd's 0.2-0.3 (bench/daemon/run.mjs --list-cpu). Sparkplug took about a fifth off
//   each read call (a quarter off ListContainerStats) for ~2 MiB of anonymous memory and ~4 MiB
//   more of the node binary's pages in VmRSS (docs/benchmarks.md, #31);
// - --v8-pool-size=1: one V8 worker thread is enough on a node's spare cores;
// - MALLOC_ARENA_MAX=2: glibc gives threads that malloc (libuv's pool, V8's
//   workers) arenas of their own, ~20 MB of RSS mostly left idle.
// - bin/isulats.cjs in place of bin/isulats (the command npm links, which only
//   loads it): the loader the daemon's argv names, whatever npm linked.
// - the parsed command line in ISULATS_DAEMON_RUN (run-daemon.ts), when the script is
//   bin/isulats.cjs: it then loads the daemon's own bundle, without the CLI (oclif, the
//   other commands).
// What the user set wins (a node flag of the same name on the command line or in
// NODE_OPTIONS, the variable in the environment); ISULATS_DAEMON_REEXEC=0
// turns the re-exec off (the re-executed daemon has it set, so it runs once).
// ISULATS_DAEMON_NODE_FLAGS replaces the list of Node.js flags (space-separated,
// empty for none) while keeping the rest of the re-exec: a flag can be taken away
// without losing MALLOC_ARENA_MAX and the daemon's own bundle, e.g. to measure it.

import { existsSync, realpathSync } from 'node:fs';
import { basename } from 'node:path';
import { DAEMON_RUN_VARIABLE, type DaemonRun } from './run-daemon.js';

/** Node.js flags the daemon runs with. */
export const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--optimize-for-size', '--no-opt', '--no-maglev', '--v8-pool-size=1'];
/** Environment the daemon runs with. */
export const DAEMON_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };
export const REEXEC_VARIABLE = 'ISULATS_DAEMON_REEXEC';
export const NODE_FLAGS_VARIABLE = 'ISULATS_DAEMON_NODE_FLAGS';

export interface ExecPlan {
  path: string;
  argv: string[];
  env: string[];
}

const flagName = (arg: string): string => arg.split('=')[0]!.replace(/_/g, '-');

/** The script to run the daemon on: the CommonJS twin of bin/isulats when the process started on that. */
export function daemonScript(script: string | undefined, exists: (path: string) => boolean = existsSync): string | undefined {
  if (script === undefined) return undefined;
  let real = script;
  try {
    real = realpathSync(script); // npm's /usr/local/bin/isulats is a symlink
  } catch {}
  return basename(real) === 'isulats' && exists(`${real}.cjs`) ? `${real}.cjs` : script;
}

/** The Node.js flags to run with: ISULATS_DAEMON_NODE_FLAGS in place of DAEMON_NODE_FLAGS when set. */
export function daemonNodeFlags(env: NodeJS.ProcessEnv): readonly string[] {
  const own = env[NODE_FLAGS_VARIABLE];
  if (own === undefined) return DAEMON_NODE_FLAGS;
  const flags = own.split(/\s+/).filter(Boolean);
  const bad = flags.find((f) => !/^--[a-z]/i.test(f));
  if (bad !== undefined) throw new Error(`${NODE_FLAGS_VARIABLE}: "${bad}" is not a Node.js flag (--name or --name=value)`);
  return flags;
}

/** What to execve, or undefined when this process already runs as it should. */
export function daemonExecPlan(p: { execPath: string; execArgv: string[]; argv: string[]; env: NodeJS.ProcessEnv; script?: string }): ExecPlan | undefined {
  if (p.env[REEXEC_VARIABLE] === '0') return undefined;
  const script = p.script ?? p.argv[1];
  const given = new Set([...p.execArgv, ...(p.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName));
  const flags = daemonNodeFlags(p.env).filter((f) => !given.has(flagName(f)));
  const env = Object.entries(DAEMON_ENV).filter(([k]) => p.env[k] === undefined);
  if (flags.length === 0 && env.length === 0 && script === p.argv[1]) return undefined;
  const next: NodeJS.ProcessEnv = { ...p.env, ...Object.fromEntries(env), [REEXEC_VARIABLE]: '0' };
  return {
    path: p.execPath,
    argv: [p.argv[0] ?? p.execPath, ...p.execArgv, ...flags, ...(script === undefined ? [] : [script]), ...p.argv.slice(2)],
    env: Object.entries(next).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`),
  };
}

/**
 * Re-executes this process under the daemon's settings; returns only when that
 * is not needed or not possible (no native addon: the daemon then runs with
 * Node's defaults, which work, with more memory), saying why through `warn`.
 */
export async function reexecForDaemon(warn: (msg: string) => void, run?: DaemonRun): Promise<void> {
  const script = daemonScript(process.argv[1]);
  const plan = daemonExecPlan({ execPath: process.execPath, execArgv: process.execArgv, argv: process.argv, env: process.env, script });
  if (!plan) return;
  plan.env = plan.env.filter((e) => !e.startsWith(`${DAEMON_RUN_VARIABLE}=`));
  if (run && script !== undefined && basename(script) === 'isulats.cjs') plan.env.push(`${DAEMON_RUN_VARIABLE}=${JSON.stringify(run)}`);
  try {
    const { execve } = await import('../runtime/native.js');
    execve(plan.path, plan.argv, plan.env);
  } catch (err) {
    warn(`running with Node.js defaults (re-exec with ${daemonNodeFlags(process.env).join(' ')} failed: ${(err as Error).message})`);
  }
}
