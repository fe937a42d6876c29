import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import type { CommandInfo } from '../cli/command-info.js';

export default defineCommand({
  summary: 'Output shell completion code',
  usage: 'completion [bash|zsh|fish]',
  description: `Output shell completion code for bash, zsh or fish.

Examples:

    # Installing bash completion on Linux
    source <(isulats completion bash)

    # Installing zsh completion on Linux
    source <(isulats completion zsh)

    # Installing fish completion on Linux
    isulats completion fish | source`,
  args: {
    shell: Args.string({ description: 'bash (default), zsh or fish', required: false }),
  },
  async run(ctx) {
    const shell: string = ctx.args.shell ?? 'bash';
    if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw new Error('only bash, zsh or fish are supported');
    const commands = await ctx.describeCommands();
    const script = shell === 'bash' ? bashCompletion(commands) : shell === 'zsh' ? zshCompletion(commands) : fishCompletion(commands);
    ctx.print(`${script}\n`);
  },
});

export type { CommandInfo, FlagInfo } from '../cli/command-info.js';

const GLOBALS_WITH_VALUE = ['-r', '--runtime-endpoint', '-i', '--image-endpoint', '-t', '--timeout', '-c', '--config', '--root', '--state', '--registry-config-dir'];
const GLOBAL_NAMES = ['--runtime-endpoint', '--image-endpoint', '--timeout', '--debug', '--config', '--root', '--state', '--registry-config-dir', '--help', '--version'];

function topWords(commands: CommandInfo[]): string[] {
  const words = new Set<string>();
  for (const c of commands) {
    words.add(c.words[0]);
    if (c.words.length === 1) for (const a of c.aliases) words.add(a);
  }
  return [...words];
}

function flagWords(c: CommandInfo): string[] {
  return c.flags.flatMap((f) => [`--${f.name}`, ...(f.char ? [`-${f.char}`] : [])]);
}

/** Bash: the verb (and global flags) first, then the verb's own flags or sub-words. */
export function bashCompletion(commands: CommandInfo[]): string {
  const cases: string[] = [];
  const topics = new Map<string, string[]>();
  for (const c of commands) {
    if (c.words.length > 1) topics.set(c.words[0], [...(topics.get(c.words[0]) ?? []), c.words.slice(1).join(' ')]);
  }
  for (const c of commands) {
    if (c.words.length > 1) continue;
    cases.push(`        ${[c.words[0], ...c.aliases].join('|')})\n            opts="${flagWords(c).join(' ')}" ;;`);
  }
  for (const [topic, subs] of topics) cases.push(`        ${topic})\n            opts="${subs.join(' ')}" ;;`);
  return `_isulats_completion() {
    local cur cmd opts i
    COMPREPLY=()
    cur="\${COMP_WORDS[COMP_CWORD]}"
    cmd=""
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "\${COMP_WORDS[i]}" in
            ${GLOBALS_WITH_VALUE.join('|')}) i=$((i + 1)) ;;
            -*) ;;
            *) cmd="\${COMP_WORDS[i]}"; break ;;
        esac
    done
    case "$cmd" in
        "")
            opts="${[...topWords(commands), ...GLOBAL_NAMES].join('\n')}" ;;
${cases.join('\n')}
        *)
            opts="" ;;
    esac
    COMPREPLY=( $(compgen -W "\${opts}" -- "\${cur}") )
    return 0
}

complete -o default -F _isulats_completion isulats`;
}

function zshQuote(s: string): string {
  return s.replace(/'/g, "'\\''");
}

function zshItem(name: string, summary: string): string {
  return `'${zshQuote(name.replace(/:/g, '\\:'))}:${zshQuote(summary.split('\n')[0])}'`;
}

/** Zsh: crictl's _describe layout, with each verb's own flags once the verb is typed. */
export function zshCompletion(commands: CommandInfo[]): string {
  const cmds: string[] = [];
  for (const c of commands) {
    for (const name of [c.words.join(' '), ...(c.words.length === 1 ? c.aliases : [])]) {
      if (c.words.length > 1) continue;
      cmds.push(zshItem(name, c.summary));
    }
  }
  const topics = new Map<string, string[]>();
  for (const c of commands) {
    if (c.words.length > 1) {
      topics.set(c.words[0], [...(topics.get(c.words[0]) ?? []), zshItem(c.words.slice(1).join(' '), c.summary)]);
      if (!cmds.some((x) => x.startsWith(`'${c.words[0]}:`))) cmds.push(zshItem(c.words[0], `${c.words[0]} commands`));
    }
  }
  const cases = commands
    .filter((c) => c.words.length === 1)
    .map((c) => `    ${[c.words[0], ...c.aliases].join('|')})\n      opts=(${c.flags.map((f) => zshItem(`--${f.name}`, f.summary)).join(' ')}) ;;`);
  for (const [topic, subs] of topics) cases.push(`    ${topic})\n      opts=(${subs.join(' ')}) ;;`);
  const globals = GLOBAL_NAMES.map((g) => `'${g}'`).join(' ');
  return `#compdef isulats

_cli_zsh_autocomplete() {
  local -a cmds opts
  if (( CURRENT == 2 )); then
    cmds=(${cmds.join(' ')})
    _describe 'commands' cmds
    opts=(${globals})
    _describe 'global options' opts
    return
  fi
  case $words[2] in
${cases.join('\n')}
    *)
      opts=() ;;
  esac
  _describe 'options' opts
  _files
}

compdef _cli_zsh_autocomplete isulats`;
}

function fishQuote(s: string): string {
  return `'${s.split('\n')[0].replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** Fish: one `complete` line per verb and per flag, flags scoped to their verb. */
export function fishCompletion(commands: CommandInfo[]): string {
  const lines = ['# isulats fish shell completion', '', 'complete -c isulats -f'];
  for (const g of ['runtime-endpoint:r', 'image-endpoint:i', 'timeout:t', 'config:c', 'root', 'state', 'registry-config-dir']) {
    const [name, ch] = g.split(':');
    lines.push(`complete -c isulats -n '__fish_use_subcommand' -l ${name}${ch ? ` -s ${ch}` : ''} -r`);
  }
  lines.push(`complete -c isulats -n '__fish_use_subcommand' -l debug -s D`);
  const seenTopics = new Set<string>();
  for (const c of commands) {
    if (c.words.length > 1) {
      if (!seenTopics.has(c.words[0])) {
        seenTopics.add(c.words[0]);
        lines.push(`complete -c isulats -n '__fish_use_subcommand' -a ${c.words[0]} -d ${fishQuote(`${c.words[0]} commands`)}`);
      }
      lines.push(`complete -c isulats -n '__fish_seen_subcommand_from ${c.words[0]}' -a ${fishQuote(c.words.slice(1).join(' '))} -d ${fishQuote(c.summary)}`);
      continue;
    }
    const names = [c.words[0], ...c.aliases];
    for (const n of names) lines.push(`complete -c isulats -n '__fish_use_subcommand' -a ${n} -d ${fishQuote(c.summary)}`);
    for (const f of c.flags) {
      lines.push(`complete -c isulats -n '__fish_seen_subcommand_from ${names.join(' ')}' -l ${f.name}${f.char ? ` -s ${f.char}` : ''}${f.takesValue ? ' -r' : ''} -d ${fishQuote(f.summary)}`);
    }
  }
  return lines.join('\n');
}
