import { describe, expect, it } from 'vitest';
import { configTable, getValue } from '../../src/commands/config.js';
import { bashCompletion, fishCompletion, zshCompletion, type CommandInfo } from '../../src/commands/completion.js';

describe('config values', () => {
  it('prints unset keys as crictl does', () => {
    expect(getValue({}, 'runtime-endpoint')).toBe('');
    expect(getValue({}, 'timeout')).toBe('0');
    expect(getValue({ debug: true }, 'debug')).toBe('true');
    expect(() => getValue({}, 'nope')).toThrow('no configuration option named nope');
  });

  it('lists every key in a table', () => {
    const out = configTable({ 'runtime-endpoint': 'unix:///x.sock', timeout: 5 });
    expect(out.split('\n')[0]).toMatch(/^KEY\s+VALUE$/);
    expect(out).toMatch(/runtime-endpoint\s+unix:\/\/\/x\.sock/);
    expect(out).toMatch(/timeout\s+5/);
  });
});

describe('completion scripts', () => {
  const commands: CommandInfo[] = [
    { words: ['images'], aliases: ['img'], summary: 'List images', flags: [{ name: 'quiet', char: 'q', summary: 'Only show image IDs', takesValue: false }] },
    { words: ['nri', 'plugins'], aliases: [], summary: "List NRI plugins ('registered')", flags: [] },
  ];

  it('bash completes verbs, aliases and per-verb flags', () => {
    const s = bashCompletion(commands);
    expect(s).toContain('images|img)');
    expect(s).toContain('opts="--quiet -q"');
    expect(s).toContain('nri)\n            opts="plugins"');
    expect(s.trim().endsWith('complete -o default -F _isulats_completion isulats')).toBe(true);
  });

  it('zsh describes verbs and quotes single quotes', () => {
    const s = zshCompletion(commands);
    expect(s).toContain("'images:List images'");
    expect(s).toContain("'plugins:List NRI plugins ('\\''registered'\\'')'");
    expect(s).toContain('compdef _cli_zsh_autocomplete isulats');
  });

  it('fish scopes flags to their verb', () => {
    const s = fishCompletion(commands);
    expect(s).toContain("complete -c isulats -n '__fish_seen_subcommand_from images img' -l quiet -s q -d 'Only show image IDs'");
    expect(s).toContain("-a 'plugins'");
  });
});
