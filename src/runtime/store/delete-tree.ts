// Deletes a tree nobody reaches by its name any more (renamed away first) with one `rm -rf`,
// started from one of the addon's worker threads: the process then does no work per file (a layer
// has hundreds to tens of thousands, each ~60 µs of event loop through Node's fs) and sends the
// thread pool nothing. Node's recursive rm sent it one call per entry at once, and the next calls'
// own reads and writes (often the pull of the image just removed) queued behind them. Without the
// addon, or when rm fails: the trash's way, one call at a time.
import { hasRunProcess, runProcess } from '../native.js';
import { deleteLater } from './trash.js';

/** Resolves once `path` is deleted (or could not be); never rejects. */
export async function deleteTree(path: string): Promise<void> {
  if (hasRunProcess()) {
    // This process's environment (PATH finds rm), read by the addon; C locale for its messages.
    const out = await runProcess('rm', ['rm', '-rf', '--one-file-system', '--', path], { env: null, extra: ['LC_ALL=C'] }, null, null, -1, 4096).catch(() => undefined);
    if (out && out.errno === 0 && out.exitCode === 0) return;
  }
  await deleteLater(path);
}
