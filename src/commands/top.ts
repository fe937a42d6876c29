import * as Args from '@oclif/core/args';
import * as Flags from '@oclif/core/flags';
import { readFileSync } from 'node:fs';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { table } from '../cli/output/tabwriter.js';

// Two forms: `top CONTAINER` lists a container's processes (isula top);
// `top` alone is the live view of the node's pods and containers (src/cli/top).
export default defineCommand({
  summary: "Live CPU and memory of the node's pods and containers; with CONTAINER, its processes (isula top)",
  description: `Without CONTAINER: a full-terminal view of every running container, grouped by pod, with CPU %
(from the growth of usage_core_nano_seconds between refreshes) and working-set memory, bars and
totals, read through CRI stats calls only (any runtime). Keys: q quits, up/down move, Enter shows
the selected container's inspect (any key returns), s changes the sort. When stdout is not a
terminal, a plain table is printed at each refresh.`,
  usage: 'top [--interval DURATION] [-n N] [--sort cpu|mem|name] [--namespace NS] [--label K=V...] | top CONTAINER',
  examples: ['isulats top', 'isulats top --sort mem --namespace kube-system -n 1 > usage.txt', 'isulats top 1f2e'],
  args: { container: Args.string({ required: false, description: 'Container ID or unique prefix: list its processes instead' }) },
  flags: {
    interval: Flags.string({ summary: 'Time between refreshes: seconds, or a duration such as 500ms', default: '2s' }),
    count: Flags.integer({ char: 'n', min: 1, summary: 'Stop after N refreshes' }),
    sort: Flags.option({ options: ['cpu', 'mem', 'name'] as const, default: 'cpu', summary: 'Sort pods and containers by' })(),
    namespace: Flags.string({ summary: 'Only pods of this namespace' }),
    label: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Only pods with this key=value label' }),
  },
  async run(ctx) {
    if (ctx.args.container === undefined) {
      const { runNodeTop } = await import('../cli/top/node-top.js');
      return runNodeTop(ctx);
    }
    const backend = await ctx.backend();
    const id = await resolveContainerId(backend, ctx.args.container);
    const pids = await extraOf(backend, 'topContainer', 'top')(id);
    const rows = pids.map((pid) => processRow(pid)).filter((r): r is string[] => r !== undefined);
    ctx.print(table(['UID', 'PID', 'PPID', 'STIME', 'TIME', 'CMD'], rows));
  },
});

const CLK_TCK = 100;

/** One `ps -ef`-like row from /proc; undefined when the process is gone. */
export function processRow(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = fields[1];
    const cpuTicks = Number(fields[11]) + Number(fields[12]);
    const startTicks = Number(fields[19]);
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '?';
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ') || `[${stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))}]`;
    const bootMs = Date.now() - Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000;
    const started = new Date(bootMs + (startTicks / CLK_TCK) * 1000);
    const t = Math.floor(cpuTicks / CLK_TCK);
    const time = `${String(Math.floor(t / 3600)).padStart(2, '0')}:${String(Math.floor(t / 60) % 60).padStart(2, '0')}:${String(t % 60).padStart(2, '0')}`;
    const stime = `${String(started.getHours()).padStart(2, '0')}:${String(started.getMinutes()).padStart(2, '0')}`;
    return [uid, String(pid), ppid, stime, time, cmd];
  } catch {
    return undefined;
  }
}
