// `isulats nri config`: the NRI settings the runtime runs with (daemon.json's
// nri keys with defaults filled in): from the daemon through its admin
// service, or, in embedded mode, what this CLI's engine would use.
import * as Flags from '@oclif/core/flags';
import { extraOf } from '../../client/backend.js';
import { renderStructured } from '../../cli/output/format.js';
import { table } from '../../cli/output/tabwriter.js';
import { defineCommand } from '../../cli/spec.js';

export default defineCommand({
  summary: 'Show the NRI configuration of the runtime',
  flags: {
    output: Flags.option({ char: 'o', options: ['table', 'json', 'yaml'] as const, summary: 'Output format' })(),
  },
  async run(ctx) {
    const backend = await ctx.backend();
    const config = await extraOf(backend, 'nriConfig', 'reading the NRI configuration')();
    const output = ctx.flags.output as 'table' | 'json' | 'yaml' | undefined;
    if (output === 'json' || output === 'yaml') {
      ctx.print(await renderStructured(config, output));
      return;
    }
    const rows: string[][] = [
      ['enabled', String(config.enabled)],
      ['mode', config.mode],
      ['socket', config.socket],
      ['external-connections', String(config.externalConnections)],
      ['plugin-dir', config.pluginDir],
      ['plugin-config-dir', config.pluginConfigDir],
      ['registration-timeout', `${config.registrationTimeoutMs}ms`],
      ['request-timeout', `${config.requestTimeoutMs}ms`],
    ];
    ctx.print(table(['KEY', 'VALUE'], rows));
  },
});
