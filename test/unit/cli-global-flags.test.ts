import { describe, expect, it } from 'vitest';
import { hoistGlobalFlags, globalFlagsFor } from '../../src/cli/global-flags.js';
import * as Flags from '@oclif/core/flags';

describe('hoistGlobalFlags', () => {
  it.each([
    [['-r', 'unix:///x.sock', 'pods'], ['--runtime-endpoint=unix:///x.sock'], ['pods']],
    [['--runtime-endpoint=unix:///x.sock', 'pods', '-q'], ['--runtime-endpoint=unix:///x.sock'], ['pods', '-q']],
    [['-i', 'unix:///i.sock', '-t', '5s', 'exec', '-i', '-t', 'abc', 'sh'], ['--image-endpoint=unix:///i.sock', '--global-timeout=5s'], ['exec', '-i', '-t', 'abc', 'sh']],
    [['-D', '--timeout', '3s', 'version'], ['--debug', '--global-timeout=3s'], ['version']],
    [['-runix:///y.sock', 'ps'], ['--runtime-endpoint=unix:///y.sock'], ['ps']],
    [['pods', '-r', 'x'], [], ['pods', '-r', 'x']],
    [['--root', '/r', '--state', '/s', 'pods', '--state', 'ready'], ['--root=/r', '--engine-state=/s'], ['pods', '--state', 'ready']],
  ])('hoists %j', (argv, globals, rest) => {
    expect(hoistGlobalFlags(argv)).toEqual({ globals, rest });
  });

  it('refuses a value flag without its value', () => {
    expect(() => hoistGlobalFlags(['-r'])).toThrow(/needs a value/);
  });
});

describe('globalFlagsFor', () => {
  it('gives -i and -t to the global flags when the command does not use them', () => {
    const g = globalFlagsFor({});
    expect(g['image-endpoint'].char).toBe('i');
    expect(g['global-timeout'].char).toBe('t');
    expect(g['global-timeout'].aliases).toEqual(['timeout']);
  });

  it("lets a command's own -i, -t and --timeout win", () => {
    const g = globalFlagsFor({
      interactive: Flags.boolean({ char: 'i' }),
      tty: Flags.boolean({ char: 't' }),
      timeout: Flags.integer({}),
    });
    expect(g['image-endpoint'].char).toBeUndefined();
    expect(g['global-timeout'].char).toBeUndefined();
    expect(g['global-timeout'].aliases).toEqual([]);
  });

  it("keeps --state for a command's own state filter", () => {
    expect(globalFlagsFor({ state: Flags.string({}) })['engine-state'].aliases).toEqual([]);
    expect(globalFlagsFor({})['engine-state'].aliases).toEqual(['state']);
  });
});
