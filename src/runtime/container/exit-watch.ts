// Exits noticed as they happen (daemon mode), as containerd's shim reports a task's exit: conmon
// writes a container's exit file when its init has exited (atomically: a temp file renamed into
// place), and an inotify watch on the exit dir hands each new file's container ID to `onExit`.
// Without it an exit would be seen only by the next call that reads the container, and what its
// init left running would run until then.
import { watch, type FSWatcher } from 'node:fs';
import { ID_PATTERN } from '../store/state-store.js';

export interface ExitWatch {
  close(): void;
}

/**
 * Calls `onExit(id)` for each exit file that appears in `exitDir`, one call per container at a
 * time: a file seen again while its call runs is handled once more after it (the call must be
 * idempotent). `onError` gets what a call throws.
 */
export function watchExitFiles(exitDir: string, onExit: (id: string) => Promise<void>, onError: (id: string, error: Error) => void): ExitWatch {
  const running = new Map<string, boolean>(); // id -> seen again while running
  const handle = (id: string): void => {
    if (running.has(id)) {
      running.set(id, true);
      return;
    }
    running.set(id, false);
    void onExit(id)
      .catch((error: Error) => onError(id, error))
      .finally(() => {
        const again = running.get(id);
        running.delete(id);
        if (again) handle(id);
      });
  };
  const watcher: FSWatcher = watch(exitDir, { persistent: false }, (_event, name) => {
    if (typeof name === 'string' && ID_PATTERN.test(name)) handle(name);
  });
  watcher.on('error', () => undefined);
  return { close: () => watcher.close() };
}

/**
 * watchExitFiles, or undefined with one warning when the watch cannot be made (a node out of
 * inotify watches or instances, which busy Kubernetes nodes run into): the engine then works as
 * without a watch, each exit released by the next call that reads its container.
 */
export function tryWatchExitFiles(
  exitDir: string, onExit: (id: string) => Promise<void>, onError: (id: string, error: Error) => void, warn: (message: string) => void,
): ExitWatch | undefined {
  try {
    return watchExitFiles(exitDir, onExit, onError);
  } catch (error) {
    warn(`cannot watch ${exitDir} for container exits (${(error as Error).message}): each exit is released by the next call that reads its container`);
    return undefined;
  }
}
