// A command as completion scripts see it. Plain data, so that the command
// context can carry the command list without importing the registry.

export interface FlagInfo {
  name: string;
  char?: string;
  summary: string;
  takesValue: boolean;
}

export interface CommandInfo {
  /** Words of the command id ("nri plugins" is two). */
  words: string[];
  aliases: string[];
  summary: string;
  flags: FlagInfo[];
}
