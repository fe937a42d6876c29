import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { parseDuration } from '../cli/duration.js';
import { loadConfigFile } from '../cli/config-loader.js';

export default defineCommand({
  summary: 'Run a new pod',
  examples: [
    'isulats runp pod-config.json',
    'isulats runp --runtime runc pod-config.yaml',
  ],
  usage: 'runp [flags] pod-config.[json|yaml]',
  args: {
    config: Args.string({ required: true, description: 'Pod sandbox config file (JSON or YAML)' }),
  },
  flags: {
    runtime: Flags.string({ char: 'r', summary: 'Runtime handler to use. Available options are defined by the container runtime.' }),
    'cancel-timeout': Flags.string({ char: 'T', summary: 'Time to wait for the run pod sandbox request to complete before cancelling it (e.g. 30s)' }),
  },
  async run(ctx) {
    // The config is checked before connecting: a bad file fails fast and offline.
    const config = await loadConfigFile(ctx.args.config, 'pod');
    const cancel = ctx.flags['cancel-timeout'] ? parseDuration(ctx.flags['cancel-timeout']) : 0;
    if (cancel > 0) ctx.globals.timeoutMs = cancel;
    const backend = await ctx.backend();
    try {
      const r = await backend.runPodSandbox({ config, runtimeHandler: ctx.flags.runtime ?? '' });
      ctx.print(`${r.podSandboxId}\n`);
    } catch (err) {
      throw new Error(`run pod sandbox: ${(err as Error).message}`, { cause: err });
    }
  },
});
