// The entry of dist/isulats-daemon.cjs: the daemon after its re-exec, its command line parsed by
// the process before it (run-daemon.ts). Errors end it as the CLI's do: one line, exit code 1.
import { exitCodeFor, formatError } from '../cli/errors.js';
import { DAEMON_RUN_VARIABLE, loadDaemonConfig, serveDaemon, type DaemonRun } from './run-daemon.js';

export async function main(): Promise<void> {
  let code = 0;
  try {
    const text = process.env[DAEMON_RUN_VARIABLE];
    // Not for the daemon's children (runc, conmon, NRI plugins, hooks).
    delete process.env[DAEMON_RUN_VARIABLE];
    if (text === undefined) throw new Error(`${DAEMON_RUN_VARIABLE} is not set (this bundle runs only as the re-executed daemon)`);
    const run = JSON.parse(text) as DaemonRun;
    code = await serveDaemon(run, await loadDaemonConfig(run));
  } catch (err) {
    const msg = formatError(err);
    if (msg) process.stderr.write(`isulats: ${msg}\n`);
    code = exitCodeFor(err);
  }
  await new Promise<void>((resolve) => (process.stdout.writableLength === 0 ? resolve() : process.stdout.write('', () => resolve())));
  process.exit(code);
}
