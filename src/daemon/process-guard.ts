// The daemon's last line: an error nothing caught (a timer's callback, a socket's event, a
// promise nobody awaited) is logged with its stack and the daemon keeps serving. Node's default
// ends the process, which for a daemon means every client losing its runtime, and a socket and
// pid file left behind, over what is usually one connection's or one timer's problem: most
// often the node running out of something for a moment (descriptors, memory, disk), which
// passes. Everything the engine keeps is on disk under locks and survives a failed callback.
import type { Logger } from './logger.js';

/** Installs the handlers; returns their removal. */
export function guardProcess(log: Logger): () => void {
  // A throw from here would end the process after all: the log line is best effort.
  const report = (msg: string, fields: Record<string, unknown>): void => {
    try {
      log.error(msg, fields);
    } catch {
      // Nowhere left to say it.
    }
  };
  const onException = (err: Error, origin: string): void => {
    report('survived an error no code caught; the daemon goes on serving', { origin, error: err, stack: err?.stack });
  };
  const onRejection = (reason: unknown): void => {
    report('survived a promise rejection no code handled; the daemon goes on serving', {
      error: reason, stack: reason instanceof Error ? reason.stack : undefined,
    });
  };
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  return () => {
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  };
}
