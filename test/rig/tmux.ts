// A real pseudo-terminal for CLI tests: one tmux server on a socket of its
// own (so other users' sessions are never touched), a fixed-size session
// running one command, keys sent in, the screen read back as text.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { waitFor } from './wait.js';

const run = promisify(execFile);

export interface TmuxSession {
  /** The visible screen, one string per line (trailing spaces trimmed). */
  screen(): Promise<string>;
  /** tmux send-keys arguments: literal text, or key names such as Enter, Down, q. */
  send(...keys: string[]): Promise<void>;
  /** Polls the screen until `pattern` shows on it. */
  waitForScreen(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** True while the command (the session's only pane) still runs. */
  alive(): Promise<boolean>;
  /** Kills our tmux server and removes its socket dir. */
  close(): Promise<void>;
}

export async function startTmux(command: string, size: { width: number; height: number }, env: NodeJS.ProcessEnv = {}): Promise<TmuxSession> {
  const dir = await makeTempDir('ist-tmux-');
  const socket = join(dir, 's');
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { env: { ...process.env, ...env, TERM: 'xterm-256color' } });
  // remain-on-exit keeps the last screen readable after the command ends.
  await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 't', '-x', String(size.width), '-y', String(size.height), command);
  await tmux('set-option', '-t', 't', 'remain-on-exit', 'on');
  const screen = async () => (await tmux('capture-pane', '-p', '-t', 't')).stdout.split('\n').map((l) => l.trimEnd()).join('\n');
  return {
    screen,
    send: async (...keys) => void (await tmux('send-keys', '-t', 't', ...keys)),
    waitForScreen: (pattern, timeoutMs = 30_000) =>
      waitFor(async () => {
        const s = await screen();
        return pattern.test(s) ? s : undefined;
      }, { timeoutMs, intervalMs: 200, what: `screen to show ${pattern}` }).catch(async (err) => {
        throw new Error(`${(err as Error).message}; screen:\n${await screen().catch(() => '(gone)')}`);
      }),
    alive: async () => (await tmux('list-panes', '-t', 't', '-F', '#{pane_dead}')).stdout.trim() === '0',
    close: async () => {
      await tmux('kill-server').catch(() => undefined);
      await removeTempDir(dir);
    },
  };
}
