// The facts a benchmark's figures need beside them: CPU, cores, memory, kernel, load, and the
// versions of everything measured.
import { readFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { run } from '../../test/rig/proc.js';

const firstLine = async (cmd: string, args: string[]): Promise<string> =>
  (await run(cmd, args, { check: false }).catch(() => ({ stdout: 'n/a' }))).stdout.split('\n')[0]!.trim();

export async function machineFacts(): Promise<string> {
  const kernel = (await readFile('/proc/sys/kernel/osrelease', 'utf8')).trim();
  const rev = await firstLine('git', ['rev-parse', '--short', 'HEAD']);
  return [
    `Machine: ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${kernel}, ` +
      `load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} at the start (the machine is shared: figures are indicative).`,
    `Versions: isulats ${rev}, Node.js ${process.version}, ${await firstLine('containerd', ['--version'])}, ${await firstLine('runc', ['--version'])}, ` +
      `${await firstLine('crun', ['--version'])}, ${await firstLine('conmon', ['--version'])}.`,
  ].join('\n');
}
