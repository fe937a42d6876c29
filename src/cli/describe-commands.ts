// Every registered command with its aliases and flags, for shell completion.
// The dispatcher hands this to commands through their context: a command that
// imported the registry would import itself back (the registry loads it).
import { COMMANDS, ALIASES } from './registry.js';
import { GLOBAL_FLAGS } from './global-flags.js';
import type { CommandInfo, FlagInfo } from './command-info.js';
import type { CommandSpec } from './spec.js';

/** Loads every command module. */
export async function describeCommands(): Promise<CommandInfo[]> {
  const out: CommandInfo[] = [];
  for (const [id, load] of Object.entries(COMMANDS)) {
    const spec: CommandSpec = (await load()).default;
    const aliases = [...new Set([...Object.entries(ALIASES).filter(([, target]) => target === id).map(([alias]) => alias), ...(spec.aliases ?? [])])];
    const flags: FlagInfo[] = Object.entries(spec.flags ?? {}).map(([name, f]: [string, any]) => ({
      name,
      char: f.char,
      summary: String(f.summary ?? f.description ?? ''),
      takesValue: f.type === 'option',
    }));
    for (const g of GLOBAL_FLAGS) {
      if (g.name === 'global-timeout') continue;
      if (flags.some((f) => f.name === g.name)) continue;
      flags.push({ name: g.name, summary: g.description, takesValue: g.takesValue });
    }
    out.push({ words: id.split(' '), aliases, summary: spec.summary, flags });
  }
  return out;
}
