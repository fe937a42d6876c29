import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DAEMON_NODE_FLAGS, daemonExecPlan, daemonScript, NODE_FLAGS_VARIABLE, REEXEC_VARIABLE } from '../../src/daemon/process-tuning.js';

const base = { execPath: '/usr/bin/node', execArgv: [] as string[], argv: ['/usr/bin/node', '/usr/local/bin/isulats', 'daemon', '--config-file', '/etc/isulats/daemon.json'], env: { PATH: '/usr/bin' } as NodeJS.ProcessEnv };

describe('daemon re-exec plan', () => {
  it('adds the V8 flag before the script and the glibc variable, keeping argv and environment', () => {
    const plan = daemonExecPlan(base)!;
    expect(plan.path).toBe('/usr/bin/node');
    expect(DAEMON_NODE_FLAGS).toContain('--max-semi-space-size=1');
    expect(plan.argv).toEqual(['/usr/bin/node', ...DAEMON_NODE_FLAGS, '/usr/local/bin/isulats', 'daemon', '--config-file', '/etc/isulats/daemon.json']);
    expect(plan.env).toEqual(['PATH=/usr/bin', 'MALLOC_ARENA_MAX=2', `${REEXEC_VARIABLE}=0`]);
  });

  it('runs once: the re-executed process (or a user) sets the variable to 0', () => {
    expect(daemonExecPlan({ ...base, env: { [REEXEC_VARIABLE]: '0' } })).toBeUndefined();
  });

  it('leaves what the user set alone', () => {
    const own = daemonExecPlan({ ...base, execArgv: ['--max_semi_space_size=8', ...DAEMON_NODE_FLAGS.slice(1)], env: { MALLOC_ARENA_MAX: '4' } });
    expect(own).toBeUndefined();
    const viaOptions = daemonExecPlan({ ...base, env: { NODE_OPTIONS: '--max-semi-space-size=4' } })!;
    expect(viaOptions.argv).toEqual([base.argv[0], ...DAEMON_NODE_FLAGS.slice(1), ...base.argv.slice(1)]);
    expect(viaOptions.env).toContain('MALLOC_ARENA_MAX=2');
    const keepsFlags = daemonExecPlan({ ...base, execArgv: ['--inspect'] })!;
    expect(keepsFlags.argv.slice(0, 3)).toEqual(['/usr/bin/node', '--inspect', DAEMON_NODE_FLAGS[0]]);
  });

  it('takes its Node.js flags from ISULATS_DAEMON_NODE_FLAGS when set, keeping the rest of the re-exec', () => {
    const swapped = daemonExecPlan({ ...base, env: { ...base.env, [NODE_FLAGS_VARIABLE]: ' --max-semi-space-size=1  --max-opt=1 ' } })!;
    expect(swapped.argv).toEqual(['/usr/bin/node', '--max-semi-space-size=1', '--max-opt=1', ...base.argv.slice(1)]);
    expect(swapped.argv).not.toContain('--no-opt');
    expect(swapped.env).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=2', `${REEXEC_VARIABLE}=0`, `${NODE_FLAGS_VARIABLE}= --max-semi-space-size=1  --max-opt=1 `]));
    // Empty: no flags at all, still the glibc setting.
    const none = daemonExecPlan({ ...base, env: { ...base.env, [NODE_FLAGS_VARIABLE]: '' } })!;
    expect(none.argv).toEqual(base.argv);
    expect(none.env).toContain('MALLOC_ARENA_MAX=2');
    // What the user gave on the command line still wins over the list.
    const given = daemonExecPlan({ ...base, execArgv: ['--max-opt=3'], env: { [NODE_FLAGS_VARIABLE]: '--max-opt=1 --v8-pool-size=1' } })!;
    expect(given.argv.slice(0, 4)).toEqual(['/usr/bin/node', '--max-opt=3', '--v8-pool-size=1', base.argv[1]]);
  });

  it('refuses an ISULATS_DAEMON_NODE_FLAGS item that is not a flag, naming it', () => {
    expect(() => daemonExecPlan({ ...base, env: { [NODE_FLAGS_VARIABLE]: '--lite-mode max-opt=1' } })).toThrow(/ISULATS_DAEMON_NODE_FLAGS: "max-opt=1" is not a Node\.js flag/);
    expect(() => daemonExecPlan({ ...base, env: { [NODE_FLAGS_VARIABLE]: '-- --lite-mode' } })).toThrow(/"--" is not/);
  });

  it('runs the daemon on the CommonJS twin of the script it was given', () => {
    const plan = daemonExecPlan({ ...base, script: '/usr/lib/node_modules/isulats/bin/isulats.cjs' })!;
    expect(plan.argv).toEqual(['/usr/bin/node', ...DAEMON_NODE_FLAGS, '/usr/lib/node_modules/isulats/bin/isulats.cjs', 'daemon', '--config-file', '/etc/isulats/daemon.json']);
    // Only the script differs: still worth the re-exec.
    const swapOnly = daemonExecPlan({ ...base, execArgv: [...DAEMON_NODE_FLAGS], env: { MALLOC_ARENA_MAX: '2' }, script: '/x/bin/isulats.cjs' })!;
    expect(swapOnly.argv).toEqual(['/usr/bin/node', ...DAEMON_NODE_FLAGS, '/x/bin/isulats.cjs', ...base.argv.slice(2)]);
  });
});

describe('daemon script', () => {
  it('is bin/isulats.cjs for bin/isulats, reached through npm\'s symlink too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ist-script-'));
    try {
      writeFileSync(join(dir, 'isulats'), '');
      writeFileSync(join(dir, 'isulats.cjs'), '');
      symlinkSync(join(dir, 'isulats'), join(dir, 'link'));
      expect(daemonScript(join(dir, 'isulats'))).toBe(join(dir, 'isulats.cjs'));
      expect(daemonScript(join(dir, 'link'))).toBe(join(dir, 'isulats.cjs'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stays as given for any other script, or without a twin', () => {
    expect(daemonScript('/repo/.tmp/ist-e2e-daemon-1.mjs', () => true)).toBe('/repo/.tmp/ist-e2e-daemon-1.mjs');
    expect(daemonScript('/opt/isulats/bin/isulats', () => false)).toBe('/opt/isulats/bin/isulats');
    expect(daemonScript(undefined)).toBeUndefined();
  });
});
