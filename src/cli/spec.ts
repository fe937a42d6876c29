// A command is a plain spec: oclif flag/arg definitions plus a run function.
// The fast path (src/cli/main.ts) parses argv with oclif's parser and calls
// run() directly, skipping oclif's Config loading (~80 ms per call); help and
// completion build real oclif Command classes from the same specs.
import type { ArgInput, FlagInput } from '@oclif/core/parser';
import type { CommandContext } from './context.js';

export interface CommandSpec {
  summary: string;
  description?: string;
  examples?: string[];
  usage?: string;
  flags?: FlagInput<any>;
  args?: ArgInput<any>;
  /** Accept extra positional arguments (e.g. `exec ID CMD...`). */
  strict?: boolean;
  /** Everything after the first positional is passed through unparsed (exec, run). */
  passThroughAfterArgs?: number;
  aliases?: string[];
  /** Returns the exit code (default 0). */
  run(ctx: CommandContext): Promise<number | void>;
}

export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}
