import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import type { ClientConfig } from '../client/config-file.js';
import { table } from '../cli/output/tabwriter.js';

export default defineCommand({
  summary: 'Get and set isulats client configuration options',
  description: `Reads and writes the client config file (-c/--config, $CRI_CONFIG_FILE, or /etc/isulats/isulats.yaml).

OPTIONS:
   runtime-endpoint:      Container runtime endpoint
   image-endpoint:        Image endpoint
   timeout:               Timeout of connecting to server, in seconds (default: 2)
   debug:                 Enable debug output (default: false)
   pull-image-on-create:  Enable pulling image on create requests (default: false)
   disable-pull-on-run:   Disable pulling image on run requests (default: false)
   debug-image:           Image of the container \`debug\` starts (default: docker.io/library/busybox:latest)`,
  usage: 'config [get KEY | set KEY VALUE | --get KEY | --set KEY=VALUE[,KEY=VALUE] | --list | KEY VALUE]',
  examples: ['isulats config --set debug=true', 'isulats config get runtime-endpoint', 'isulats config set timeout 5'],
  strict: false,
  flags: {
    get: Flags.string({ summary: 'show the option value' }),
    set: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'set option (can specify multiple or separate values with commas: opt1=val1,opt2=val2)' }),
    list: Flags.boolean({ summary: 'show all option value' }),
  },
  async run(ctx) {
    const { configPath, parseConfigValue, readClientConfig, writeClientConfig } = await import('../client/config-file.js');
    const path = configPath(ctx.globals.configPath).path;
    // A missing file is an empty config here (crictl creates it); a malformed one is an error.
    let config: ClientConfig;
    try {
      config = await readClientConfig(path, false);
    } catch (err) {
      throw new Error(`load config file: ${(err as Error).message}`);
    }
    const set = (key: string, value: string) => {
      (config as Record<string, unknown>)[key] = parseConfigValue(key, value);
    };
    const args = ctx.argv;
    if (ctx.flags.get !== undefined || (args[0] === 'get' && args.length === 2)) {
      ctx.print(`${getValue(config, ctx.flags.get ?? args[1])}\n`);
      return;
    }
    if (ctx.flags.set?.length) {
      for (const setting of ctx.flags.set as string[]) {
        for (const option of setting.split(',')) {
          const pair = option.split('=');
          if (pair.length !== 2) throw new Error(`incorrectly specified option: ${setting}`);
          set(pair[0], pair[1]);
        }
      }
      await writeClientConfig(path, config);
      return;
    }
    if (ctx.flags.list) {
      ctx.print(configTable(config));
      return;
    }
    if (args[0] === 'set' && args.length === 3) {
      set(args[1], args[2]);
      await writeClientConfig(path, config);
      return;
    }
    if (args.length === 0) {
      await ctx.help(['config']);
      return;
    }
    if (args.length > 2) throw new Error(`too many arguments: config takes KEY VALUE (got ${args.join(' ')})`);
    // crictl's backwards-compatible form: `config KEY VALUE`.
    set(args[0], args[1] ?? '');
    await writeClientConfig(path, config);
  },
});

/** A key's value as crictl prints it: unset strings empty, unset numbers 0, unset booleans false. */
export function getValue(config: ClientConfig, key: string): string {
  switch (key) {
    case 'runtime-endpoint':
    case 'image-endpoint':
      return config[key] ?? '';
    case 'timeout':
      return String(config.timeout ?? 0);
    case 'debug':
    case 'pull-image-on-create':
    case 'disable-pull-on-run':
      return String(config[key] ?? false);
    default:
      throw new Error(`no configuration option named ${key}`);
  }
}

export function configTable(config: ClientConfig): string {
  const keys = ['runtime-endpoint', 'image-endpoint', 'timeout', 'debug', 'pull-image-on-create', 'disable-pull-on-run'];
  return table(['KEY', 'VALUE'], keys.map((k) => [k, getValue(config, k)]));
}
