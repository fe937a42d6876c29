import { describe, expect, it, vi } from 'vitest';
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

describe('global flags in help', () => {
  async function helpOf(topic: string[]): Promise<string> {
    const { runOclifHelp } = await import('../../src/cli/oclif-adapter.js');
    const chunks: string[] = [];
    // oclif's help prints through console.log.
    const write = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      chunks.push(`${args.join(' ')}\n`);
    });
    try {
      await runOclifHelp(topic);
    } finally {
      write.mockRestore();
    }
    return chunks.join('');
  }

  it('lists the global flags after the commands in the top-level help, as crictl lists its global options', async () => {
    const help = await helpOf([]);
    expect(help).toMatch(/\nGLOBAL FLAGS\n {2}-r, --runtime-endpoint=<value>\s+Endpoint of the CRI runtime service/);
    for (const flag of ['-i, --image-endpoint=<value>', '-t, --timeout=<value>', '-D, --debug', '-c, --config=<value>', '--root=<value>', '--state=<value>', '--registry-config-dir=<value>']) {
      expect(help).toContain(flag);
    }
    expect(help.indexOf('GLOBAL FLAGS')).toBeGreaterThan(help.indexOf('COMMANDS'));
  }, 30_000);

  it('shows the names users type, not the internal ones', async () => {
    const help = await helpOf(['ps']);
    expect(help).toMatch(/-t, --timeout=<value>\s+Timeout of each connection/);
    // ps has its own --state, so the engine's keeps the name that still works after the verb.
    expect(help).toMatch(/--engine-state=<value>\s+Embedded engine state/);
    expect(help).not.toContain('--global-timeout');
  }, 30_000);

  it('keeps the internal name where the command has its own flag by the same name', async () => {
    const help = await helpOf(['stop']);
    expect(help).toMatch(/-t, --timeout=<value>\s+Seconds to wait/);
    expect(help).toMatch(/--global-timeout=<value>\s+Timeout of each connection/);
    expect(help).toMatch(/--state=<value>\s+Embedded engine state/);
  }, 30_000);
});
