import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { parseDuration } from '../cli/duration.js';

export default defineCommand({
  summary: 'Watch CRI calls: a transparent proxy that prints one line per call',
  description: 'Clients (kubelet, crictl, isulats) connect to --listen; every call goes unchanged to the runtime endpoint '
    + '(--runtime-endpoint, CONTAINER_RUNTIME_ENDPOINT or the config file), and one line is printed when it ends: '
    + 'time, method, the pods/containers/images it concerns, duration and status. Stops on SIGINT/SIGTERM.',
  examples: [
    'isulats trace --listen /run/cri-trace.sock -r unix:///run/containerd/containerd.sock',
    'isulats trace --listen /run/cri-trace.sock -r unix:///run/containerd/containerd.sock --filter "Pod|Container" --slow 100ms -o json',
  ],
  flags: {
    listen: Flags.string({ summary: 'Socket clients connect to (unix:///path, /path or tcp://host:port)', required: true }),
    output: Flags.option({ char: 'o', options: ['text', 'json'] as const, summary: 'Line format: text or json (JSON lines)', default: 'text' })(),
    filter: Flags.string({ summary: 'Print only calls whose method name matches this regular expression' }),
    slow: Flags.string({ summary: 'Print only calls that took at least this long, e.g. 50ms' }),
  },
  async run(ctx) {
    let filter: RegExp | undefined;
    if (ctx.flags.filter !== undefined) {
      try {
        filter = new RegExp(ctx.flags.filter);
      } catch (err) {
        throw new UsageError(`--filter: ${(err as Error).message}`);
      }
    }
    const slowMs = ctx.flags.slow !== undefined ? parseDuration(ctx.flags.slow) : undefined;
    const { chooseBackend } = await import('../client/resolve.js');
    const choice = await chooseBackend({ runtimeEndpointFlag: ctx.globals.runtimeEndpoint, config: await ctx.config(), root: ctx.globals.root, state: ctx.globals.state });
    if (!choice.runtimeEndpoint) throw new UsageError('trace needs a runtime endpoint to forward to: give --runtime-endpoint (the embedded engine has no socket)');
    const { grpcTarget } = await import('../client/endpoint.js');
    grpcTarget(choice.runtimeEndpoint);
    if (ctx.flags.listen === choice.runtimeEndpoint || grpcTarget(ctx.flags.listen) === grpcTarget(choice.runtimeEndpoint)) {
      throw new UsageError('--listen and the runtime endpoint are the same socket');
    }

    const [{ startCriProxy }, { selected, formatJson, formatText }, { createLogger }] = await Promise.all([
      import('../trace/cri-proxy.js'), import('../trace/trace-record.js'), import('../daemon/logger.js'),
    ]);
    const format = ctx.flags.output === 'json' ? formatJson : formatText;
    const proxy = await startCriProxy({
      listen: ctx.flags.listen,
      upstream: choice.runtimeEndpoint,
      log: createLogger('warn', (line) => ctx.stderr.write(line)),
      onRecord: (r) => {
        if (selected(r, { filter, slowMs })) ctx.print(format(r));
      },
    });
    ctx.stderr.write(`tracing ${proxy.endpoint} -> ${choice.runtimeEndpoint}\n`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await proxy.close();
  },
});
