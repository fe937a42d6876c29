import * as Args from '@oclif/core/args';
import { readFileSync } from 'node:fs';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { table } from '../cli/output/tabwriter.js';

export default defineCommand({
  summary: "Show a container's processes (isula top)",
  usage: 'top CONTAINER',
  args: { container: Args.string({ required: true, description: 'Container ID or unique prefix' }) },
  async run(ctx) {
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
