// `isulats nri plugins`: the NRI plugins the runtime has connected (name,
// index, subscribed events, connected since, pid (launched ones: ours; external ones: from the socket's peer credentials)).
import * as Flags from '@oclif/core/flags';
import { extraOf } from '../../client/backend.js';
import { renderStructured } from '../../cli/output/format.js';
import { table } from '../../cli/output/tabwriter.js';
import { humanDuration } from '../../cli/output/units.js';
import { defineCommand } from '../../cli/spec.js';

export default defineCommand({
  summary: 'List NRI plugins connected to the runtime',
  flags: {
    output: Flags.option({ char: 'o', options: ['table', 'json', 'yaml'] as const, summary: 'Output format' })(),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const list = await extraOf(backend, 'nriPlugins', 'listing NRI plugins')();
    const plugins = [...list].sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : a.name.localeCompare(b.name)));
    const output = ctx.flags.output as 'table' | 'json' | 'yaml' | undefined;
    if (output === 'json' || output === 'yaml') {
      ctx.print(await renderStructured({ plugins }, output));
      return;
    }
    const now = Date.now();
    const rows = plugins.map((p) => [
      p.index,
      p.name,
      p.external ? 'external' : 'pre-installed',
      p.events.join(',') || '-',
      p.connectedSince ? `${humanDuration(now - Date.parse(p.connectedSince))} ago` : '-',
      p.pid ? String(p.pid) : '-',
    ]);
    ctx.print(table(['INDEX', 'NAME', 'KIND', 'EVENTS', 'CONNECTED', 'PID'], rows));
  },
});
