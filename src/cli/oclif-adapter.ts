// oclif's full machinery, used off the fast path: help and completion. Each
// CommandSpec becomes a real oclif Command class, so `isulats help pods` and
// `isulats pods --help` are oclif's own help output.
import { repoRoot } from '../util/repo-root.js';
import { Command, Config, Help } from '@oclif/core';
import { COMMANDS } from './registry.js';
import { globalFlagsFor, globalFlagsHelp } from './global-flags.js';
import type { CommandSpec } from './spec.js';


export function toOclifCommand(id: string, spec: CommandSpec): typeof Command {
  return class extends Command {
    static override id = id;
    static override summary = spec.summary;
    static override description = spec.description;
    static override examples = spec.examples ?? [];
    static override usage = spec.usage;
    static override aliases = spec.aliases ?? [];
    static override strict = spec.strict ?? true;
    // Help-only classes: global flags are keyed by the name users type (see globalFlagsFor).
    static override flags = {
      ...Object.fromEntries(Object.values(globalFlagsFor(spec.flags ?? {})).map((f: any) => [f.helpName, { ...f, aliases: [] }])),
      ...(spec.flags ?? {}),
    };
    static override args = spec.args ?? {};
    async run(): Promise<void> {
      throw new Error('run through the isulats dispatcher');
    }
  };
}

/** All commands as oclif classes (imports every command module: help only). */
export async function allOclifCommands(): Promise<Record<string, typeof Command>> {
  const out: Record<string, typeof Command> = {};
  for (const [id, load] of Object.entries(COMMANDS)) out[id] = toOclifCommand(id, (await load()).default);
  return out;
}

export async function loadOclifConfig(): Promise<Config> {
  const root = repoRoot();
  const commands = await allOclifCommands();
  const config = await Config.load({
    root,
    pjson: {
      name: 'isulats',
      version: '0.1.0',
      oclif: { bin: 'isulats', dirname: 'isulats', topicSeparator: ' ', topics: { nri: { description: 'NRI: the plugins connected to the runtime, and its NRI configuration' } }, commands: { strategy: 'explicit', target: './package.json', identifier: 'x' } },
    } as any,
  });
  // Register our classes directly rather than through a module path, which a bundle would not have.
  const plugin = (config as any).rootPlugin ?? [...(config as any).plugins.values()][0];
  // oclif keys topics with ':' internally ("nri plugins" is "nri:plugins").
  plugin.commands = Object.entries(commands).map(([id, c]) => ({ ...cached(id.replace(/ /g, ':'), c), load: async () => c }));
  (config as any).loadCommands?.(plugin);
  (config as any).loadTopics?.(plugin);
  return config;
}

function cached(id: string, c: typeof Command) {
  return {
    id,
    summary: c.summary,
    description: c.description,
    examples: c.examples,
    usage: c.usage,
    aliases: c.aliases ?? [],
    strict: c.strict,
    flags: Object.fromEntries(Object.entries(c.flags ?? {}).map(([k, f]: [string, any]) => [k, { ...f, name: k }])),
    args: Object.fromEntries(Object.entries(c.args ?? {}).map(([k, a]: [string, any]) => [k, { ...a, name: k }])),
    hidden: false,
    pluginName: 'isulats',
    pluginType: 'core',
    hiddenAliases: [],
  };
}

export async function runOclifHelp(topic: string[]): Promise<void> {
  const config = await loadOclifConfig();
  const help = new Help(config, { stripAnsi: !process.stdout.isTTY });
  await help.showHelp(topic);
  // oclif's root help lists commands only: the flags every command takes go after them.
  if (topic.length === 0) console.log(`\n${globalFlagsHelp().trimEnd()}`);
}
