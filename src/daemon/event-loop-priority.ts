// The daemon's event loop at a higher CPU weight than the node's other processes. Every call the
// daemon answers goes through this one thread; on a busy node (pods' busy loops, a burst of
// client processes) it waited for a CPU far longer than it ran (bench/streams --procs --load:
// 4.4 s on a CPU, 107 s runnable but waiting, in a burst of 300 exec clients), and calls missed
// their deadlines. Only this thread is raised: what it starts afterwards (threads, runc, conmon,
// containers) begins at nice 0 (SCHED_RESET_ON_FORK, native/isulats.c). A thread can hold at most
// one CPU, so a daemon gone busy still leaves the others to the node.
import type { Logger } from './logger.js';

export async function raiseEventLoop(nice: number, log: Logger): Promise<void> {
  if (nice === 0) return;
  const { raiseThreadPriority } = await import('../runtime/native.js');
  try {
    raiseThreadPriority(nice);
    log.debug('event loop thread raised', { nice });
  } catch (err) {
    // Without CAP_SYS_NICE (or RLIMIT_NICE) the daemon runs on at the nice it was started with.
    log.warn('event loop thread kept its priority', { nice, error: err });
  }
}
