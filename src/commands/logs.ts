import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { parseSince, previousLogPath, readLogs, type LogSink } from '../cli/log-reader.js';
import { failedPrecondition, notFound } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Fetch the logs of a container',
  examples: [
    'isulats logs --tail 20 -t 1f2e',
    'isulats logs -f --since 10m 1f2e',
  ],
  usage: 'logs [flags] CONTAINER-ID',
  args: {
    container: Args.string({ required: true, description: 'Container ID (or a unique prefix)' }),
  },
  flags: {
    follow: Flags.boolean({ char: 'f', summary: 'Follow log output' }),
    previous: Flags.boolean({ char: 'p', summary: 'Print the logs for the previous instance of the container in a pod if it exists' }),
    tail: Flags.integer({ summary: 'Number of lines to show from the end of the logs. Defaults to all', default: -1 }),
    'limit-bytes': Flags.integer({ summary: 'Maximum bytes of logs to return. Defaults to no limit', default: -1 }),
    since: Flags.string({ summary: 'Show logs since timestamp (e.g. 2013-01-02T13:23:37Z) or relative (e.g. 42m for 42 minutes)' }),
    timestamps: Flags.boolean({ char: 't', summary: 'Show timestamps' }),
  },
  async run(ctx) {
    const f = ctx.flags;
    const since = f.since ? parseSince(f.since) : undefined;
    const backend = await ctx.backend();
    const containerId = await resolveContainerId(backend, ctx.args.container);
    const { status } = await backend.containerStatus({ containerId });
    let logPath = status?.logPath ?? '';
    if (!logPath) throw failedPrecondition('The container has not set log path');
    if (f.previous) {
      const attempt = status?.metadata?.attempt ?? 0;
      if (attempt === 0) throw notFound(`Previous terminated container ${status?.metadata?.name ?? ''} not found`);
      logPath = previousLogPath(logPath, attempt);
    }
    const abort = new AbortController();
    const onSigint = () => abort.abort();
    process.once('SIGINT', onSigint);
    const sink: LogSink = { write: (stream, data) => writeTo(stream === 'stdout' ? ctx.stdout : ctx.stderr, data) };
    try {
      await readLogs(
        logPath,
        { tail: f.tail, since, timestamps: Boolean(f.timestamps), limitBytes: f['limit-bytes'], follow: Boolean(f.follow) },
        sink,
        {
          signal: abort.signal,
          isRunning: async () => {
            try {
              const s = (await backend.containerStatus({ containerId })).status?.state;
              return s === 'CONTAINER_RUNNING' || s === 'CONTAINER_CREATED';
            } catch {
              return false;
            }
          },
        },
      );
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EACCES') throw new Error(`failed to open log file "${logPath}": ${(err as Error).message}`, { cause: err });
      throw err;
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
});

/** Honours back-pressure so a large log piped to a slow reader is not held in memory. */
function writeTo(out: NodeJS.WritableStream, data: Buffer): Promise<void> | void {
  if (out.write(data)) return;
  return new Promise((resolve) => out.once('drain', () => resolve()));
}
