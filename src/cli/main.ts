// The CLI entry. The fast path finds the command, parses its flags with oclif's
// parser and runs it; only help goes through oclif's full Config (slower, and
// fine for help). Errors become one line on stderr and exit code 1.
import { parse } from '@oclif/core/parser';
import { hoistGlobalFlags, globalFlagsFor } from './global-flags.js';
import { findCommand } from './registry.js';
import { makeContext } from './context.js';
import { formatError, exitCodeFor } from './errors.js';
import { exitQuietlyOnBrokenPipe, isBrokenPipe } from './broken-pipe.js';
import type { CommandSpec } from './spec.js';

export const VERSION = '0.1.0';

export async function main(argv: string[]): Promise<void> {
  let code = 0;
  const keepBrokenPipeFatal = exitQuietlyOnBrokenPipe();
  try {
    code = await dispatch(argv, keepBrokenPipeFatal);
  } catch (err) {
    // A command that saw the EPIPE of its own write first (a write callback) ends as the event does.
    if (isBrokenPipe(err)) process.exit(0);
    const msg = formatError(err);
    if (msg) process.stderr.write(`isulats: ${msg}\n`);
    code = exitCodeFor(err);
  }
  await flush();
  process.exit(code);
}

async function dispatch(argv: string[], keepBrokenPipeFatal: () => void): Promise<number> {
  const { globals, rest } = hoistGlobalFlags(argv);
  if (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h' || rest[0] === 'help') {
    return showHelp(rest[0] === 'help' ? rest.slice(1) : []);
  }
  if (rest[0] === '--version' || rest[0] === '-v') {
    process.stdout.write(`isulats version ${VERSION}\n`);
    return 0;
  }
  const found = findCommand(rest);
  const { COMMANDS } = await import('./registry.js');
  if (!found) {
    // A topic on its own (`isulats nri`) shows the topic's commands.
    if (Object.keys(COMMANDS).some((id) => id.startsWith(`${rest[0]} `))) return showHelp([rest[0]]);
    throw new Error(`unknown command "${rest[0]}" (see isulats --help)`);
  }
  if (found.id === 'daemon') keepBrokenPipeFatal();
  const spec = (await COMMANDS[found.id]()).default;
  const cmdArgv = found.rest;
  const dashdash = cmdArgv.indexOf('--');
  const beforeDashes = dashdash < 0 ? cmdArgv : cmdArgv.slice(0, dashdash);
  if (beforeDashes.includes('--help') || (beforeDashes.includes('-h') && !usesChar(spec, 'h'))) return showHelp(found.id.split(' '));
  const parsed = await parseCommandArgv(spec, cmdArgv, globals);
  const ctx = makeContext(found.id, parsed, {
    help: async (topic) => void (await showHelp(topic)),
    describeCommands: async () => (await import('./describe-commands.js')).describeCommands(),
  });
  try {
    const result = await spec.run(ctx);
    return typeof result === 'number' ? result : 0;
  } finally {
    await ctx.close();
  }
}

function usesChar(spec: CommandSpec, ch: string): boolean {
  return Object.values(spec.flags ?? {}).some((f: any) => f.char === ch);
}

/** Parses a command's argv plus the hoisted globals with oclif's parser. */
export async function parseCommandArgv(spec: CommandSpec, argv: string[], hoisted: string[] = []) {
  const flags = { ...globalFlagsFor(spec.flags ?? {}), ...(spec.flags ?? {}) };
  const input = spec.passThroughAfterArgs !== undefined ? insertDashDash(argv, flags, spec.passThroughAfterArgs) : argv;
  const out = await parse([...hoisted, ...input], { flags, args: spec.args ?? {}, strict: spec.strict ?? true, '--': true } as any);
  const declared = Object.keys(spec.args ?? {}).length;
  const extra = (out.argv as string[]).slice(declared).map(String);
  return { flags: out.flags as Record<string, any>, args: out.args as Record<string, any>, argv: extra };
}

/**
 * For `exec ID CMD ARGS...`: everything after the Nth positional belongs to the
 * remote command, flags included, so a `--` goes right after it.
 */
export function insertDashDash(argv: string[], flags: Record<string, any>, positionals: number): string[] {
  if (argv.includes('--')) return argv;
  let seen = 0;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i];
    if (tok.startsWith('-') && tok !== '-') {
      const def = lookupFlag(flags, tok);
      if (def && def.type === 'option' && !tok.includes('=') && !(tok.length > 2 && !tok.startsWith('--'))) i++;
      continue;
    }
    seen++;
    if (seen === positionals) return [...argv.slice(0, i + 1), '--', ...argv.slice(i + 1)];
  }
  return argv;
}

function lookupFlag(flags: Record<string, any>, tok: string): any {
  if (tok.startsWith('--')) {
    const name = tok.slice(2).split('=')[0];
    return flags[name] ?? Object.values(flags).find((f: any) => f.aliases?.includes(name));
  }
  return Object.values(flags).find((f: any) => f.char === tok[1]);
}

async function showHelp(topic: string[]): Promise<number> {
  const { runOclifHelp } = await import('./oclif-adapter.js');
  await runOclifHelp(topic);
  return 0;
}

function flush(): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdout.writableLength === 0) return resolve();
    process.stdout.write('', () => resolve());
  });
}
