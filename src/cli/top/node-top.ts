// `top` without CONTAINER: flags checked, then the live view on a terminal
// or plain tables otherwise.
import type { CommandContext } from '../context.js';
import { parseDuration } from '../duration.js';
import { invalidArgument } from '../../runtime/errors.js';
import { parseLabels } from '../../commands/stats.js';
import type { SortKey } from './top-model.js';

export async function runNodeTop(ctx: CommandContext): Promise<void> {
  let intervalMs: number;
  try {
    intervalMs = parseDuration(ctx.flags.interval);
  } catch (err) {
    throw invalidArgument(`top: --interval: ${(err as Error).message}`);
  }
  if (intervalMs < 100) throw invalidArgument(`top: --interval must be at least 100ms, got "${ctx.flags.interval}"`);
  let labels: Record<string, string>;
  try {
    labels = parseLabels(ctx.flags.label ?? []);
  } catch (err) {
    throw invalidArgument(`top: --label: ${(err as Error).message}`);
  }
  const opts = { intervalMs, count: ctx.flags.count, sort: ctx.flags.sort as SortKey, namespace: ctx.flags.namespace, labels };
  const backend = await ctx.backend();
  const { liveTop, plainTop } = await import('./top-loop.js');
  if (ctx.stdout.isTTY && ctx.stdin.isTTY) await liveTop(ctx, backend, opts);
  else await plainTop(ctx, backend, opts);
}
