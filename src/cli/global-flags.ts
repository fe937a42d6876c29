// crictl's global flags. They may stand before the verb (`isulats -r EP pods`)
// or after it. Before the verb, -i and -t are always the global ones; after the
// verb a command's own short flags win (`exec -i -t`), so the global flag keeps
// only its long name there. The global timeout is parsed as `global-timeout`
// internally so that it never collides with a command's own --timeout.
import * as Flags from '@oclif/core/flags';
import type { FlagInput } from '@oclif/core/parser';

interface GlobalFlagSpec {
  name: string;
  char?: string;
  aliases?: string[];
  takesValue: boolean;
  description: string;
  env?: string;
}

export const GLOBAL_FLAGS: GlobalFlagSpec[] = [
  { name: 'runtime-endpoint', char: 'r', takesValue: true, description: 'Endpoint of the CRI runtime service (unix:///path, tcp://host:port, or embedded); default: the first known CRI socket that answers, else the embedded engine' },
  { name: 'image-endpoint', char: 'i', takesValue: true, description: 'Endpoint of the CRI image service (defaults to the runtime endpoint)' },
  { name: 'global-timeout', char: 't', aliases: ['timeout'], takesValue: true, description: 'Timeout of each connection and RPC, e.g. 2s, 500ms (default 2s); before the command where the command has its own --timeout' },
  { name: 'debug', char: 'D', takesValue: false, description: 'Enable debug output' },
  { name: 'config', char: 'c', takesValue: true, description: 'Client config file (default /etc/isulats/isulats.yaml, or $CRI_CONFIG_FILE)' },
  { name: 'embedded', takesValue: false, description: 'Use the embedded engine (in this process), not a CRI socket; also -r embedded' },
  { name: 'root', takesValue: true, description: 'Embedded engine root directory (default /var/lib/isulats)' },
  { name: 'engine-state', aliases: ['state'], takesValue: true, description: 'Embedded engine state directory (default /run/isulats); before the command where the command has its own --state' },
  { name: 'registry-config-dir', takesValue: true, description: "Directory of per-registry hosts.toml files (containerd's format)" },
];

/** The GLOBAL FLAGS section of the top-level help (crictl's GLOBAL OPTIONS), by the names users type. */
export function globalFlagsHelp(): string {
  const rows = GLOBAL_FLAGS.map((g) => {
    const name = g.aliases?.[0] ?? g.name;
    return [`${g.char ? `-${g.char}, ` : '    '}--${name}${g.takesValue ? '=<value>' : ''}`, g.description];
  });
  const width = Math.max(...rows.map(([left]) => left.length));
  return `GLOBAL FLAGS\n${rows.map(([left, text]) => `  ${left.padEnd(width)}  ${text}`).join('\n')}\n`;
}

/** Global flag definitions for one command, yielding short chars and long names the command uses itself. */
export function globalFlagsFor(commandFlags: FlagInput<any>): FlagInput<any> {
  const ownChars = new Set<string>();
  const ownNames = new Set<string>(Object.keys(commandFlags));
  for (const f of Object.values(commandFlags)) {
    if (f.char) ownChars.add(f.char);
    for (const a of f.aliases ?? []) ownNames.add(a);
  }
  const out: FlagInput<any> = {};
  for (const g of GLOBAL_FLAGS) {
    const aliases = (g.aliases ?? []).filter((a) => !ownNames.has(a));
    const common = {
      summary: g.description,
      helpGroup: 'GLOBAL',
      char: g.char && !ownChars.has(g.char) ? (g.char as any) : undefined,
      aliases,
    };
    // Help shows the name users type (--timeout, --state), unless the command has its own flag by that name.
    const helpName = g.aliases?.[0] && aliases.includes(g.aliases[0]) ? g.aliases[0] : g.name;
    out[g.name] = Object.assign(g.takesValue ? Flags.string(common) : Flags.boolean(common), { helpName });
  }
  return out;
}

export interface HoistedArgv {
  /** Global flags found before the verb, rewritten to their long internal names. */
  globals: string[];
  /** The verb and everything after it. */
  rest: string[];
}

/** Moves global flags that precede the verb out of the way, so the verb can be found. */
export function hoistGlobalFlags(argv: string[]): HoistedArgv {
  const globals: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const tok = argv[i];
    if (tok === '--' || !tok.startsWith('-') || tok === '-') break;
    const spec = findGlobal(tok);
    if (!spec) break;
    const eq = tok.indexOf('=');
    if (!spec.takesValue) {
      globals.push(`--${spec.name}`);
      i += 1;
    } else if (tok.startsWith('--') && eq > 0) {
      globals.push(`--${spec.name}=${tok.slice(eq + 1)}`);
      i += 1;
    } else if (!tok.startsWith('--') && tok.length > 2) {
      globals.push(`--${spec.name}=${tok.slice(2).replace(/^=/, '')}`);
      i += 1;
    } else {
      if (i + 1 >= argv.length) throw new Error(`flag ${tok} needs a value`);
      globals.push(`--${spec.name}=${argv[i + 1]}`);
      i += 2;
    }
  }
  return { globals, rest: argv.slice(i) };
}

function findGlobal(tok: string): GlobalFlagSpec | undefined {
  if (tok.startsWith('--')) {
    const name = tok.slice(2).split('=')[0];
    return GLOBAL_FLAGS.find((g) => g.name === name || g.aliases?.includes(name));
  }
  const ch = tok[1];
  return GLOBAL_FLAGS.find((g) => g.char === ch);
}
