import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { UsageError } from '../cli/errors.js';
import { resolvePodId } from '../cli/resolve-id.js';
import { absoluteStreamUrl } from '../cli/stream-session.js';
import { invalidArgument } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Forward local port to a pod',
  examples: [
    'isulats port-forward 7a3c 8080:80',
    'isulats port-forward 7a3c :80',
  ],
  usage: 'port-forward POD-ID [LOCAL_PORT:]REMOTE_PORT [...]',
  strict: false,
  args: {
    pod: Args.string({ required: true, description: 'Pod ID (or a unique prefix)' }),
  },
  async run(ctx) {
    const specs: string[] = ctx.argv;
    if (specs.length === 0) throw new UsageError('port-forward needs at least one [LOCAL_PORT:]REMOTE_PORT');
    const mappings = specs.map(parsePortSpec);
    const backend = await ctx.backend();
    const { startPortForward } = await import('../client/streaming/port-forward.js');
    let session;
    try {
      const podSandboxId = await resolvePodId(backend, ctx.args.pod);
      const r = await backend.portForward({ podSandboxId, port: mappings.map((m) => m.remotePort) });
      const url = absoluteStreamUrl(r.url);
      ctx.debug(`PortForward URL: ${url}`);
      session = await startPortForward(url, mappings, {
        onConnection: (p) => ctx.print(`Handling connection for ${p.localPort}\n`),
        onError: (err) => ctx.stderr.write(`isulats: ${err.message}\n`),
      });
    } catch (err) {
      throw new Error(`port forward: ${(err as Error).message}`, { cause: err });
    }
    for (const p of session.ports) ctx.print(`Forwarding from ${p.address.includes(':') ? `[${p.address}]` : p.address}:${p.localPort} -> ${p.remotePort}\n`);
    // Runs until Ctrl-C (or SIGTERM), or until the server ends the session.
    const stop = () => void session.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await session.done;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
  },
});

/** kubectl's port spec: "8080:80", "80" (same port locally), ":80" or "0:80" (any free local port). */
export function parsePortSpec(spec: string): { localPort: number; remotePort: number } {
  const parts = spec.split(':');
  if (parts.length > 2) throw invalidArgument(`invalid port format "${spec}": use [LOCAL_PORT:]REMOTE_PORT`);
  const remote = parsePort(parts[parts.length - 1], spec, false);
  const local = parts.length === 1 ? remote : parts[0] === '' ? 0 : parsePort(parts[0], spec, true);
  return { localPort: local, remotePort: remote };
}

function parsePort(s: string, spec: string, allowZero: boolean): number {
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isInteger(n) || n > 65535 || (n === 0 && !allowZero)) throw invalidArgument(`invalid port format "${spec}": ports are 1-65535`);
  return n;
}
