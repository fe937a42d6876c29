// Structured JSON-lines logs: {"time","level","msg",...fields}, one per line.
// Levels are iSulad's; the threshold can change at run time (SIGHUP).
import { fstatSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { LogLevel } from '../runtime/config/daemon-config.js';
import { LOG_LEVELS } from '../runtime/config/daemon-config.js';
import { isWriteRefused } from '../runtime/store/write-refused.js';

export type LogFields = Record<string, unknown>;

export interface Logger {
  level: LogLevel;
  log(level: LogLevel, msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  debug(msg: string, fields?: LogFields): void;
  enabled(level: LogLevel): boolean;
}

const rank = (l: LogLevel) => LOG_LEVELS.indexOf(l);

export function createLogger(level: LogLevel, write: (line: string) => void): Logger {
  const logger: Logger = {
    level,
    enabled: (l) => rank(l) <= rank(logger.level),
    log(l, msg, fields) {
      if (!logger.enabled(l)) return;
      const entry: LogFields = { time: new Date().toISOString(), level: l, msg };
      for (const [k, v] of Object.entries(fields ?? {})) {
        if (v === undefined) continue;
        entry[k] = v instanceof Error ? v.message : v;
      }
      write(`${JSON.stringify(entry)}\n`);
    },
    error: (msg, f) => logger.log('error', msg, f),
    warn: (msg, f) => logger.log('warn', msg, f),
    info: (msg, f) => logger.log('info', msg, f),
    debug: (msg, f) => logger.log('debug', msg, f),
  };
  return logger;
}

/**
 * `write` that drops lines a full disk refuses (ENOSPC, EDQUOT, EROFS) instead of throwing into the
 * call being logged, and says how many it dropped with the first line that gets through again.
 */
export function dropRefusedLines(write: (line: string) => void): (line: string) => void {
  let dropped = 0;
  return (line) => {
    try {
      if (dropped > 0) {
        write(`${JSON.stringify({ time: new Date().toISOString(), level: 'warn', msg: 'log lines dropped: the disk refused them', dropped })}\n`);
        dropped = 0;
      }
      write(line);
    } catch (error) {
      if (!isWriteRefused(error)) throw error;
      dropped++;
    }
  };
}

/**
 * Lines to stdout (fd 1). Redirected to a file (or a device such as /dev/full), stdout is written
 * directly, as Node's stream for it does (synchronously): that stream is destroyed by its first
 * refused write and the daemon dies of the unhandled 'error' event, where a full disk must only cost
 * the lines it refuses (dropRefusedLines). Pipes and terminals keep Node's stream.
 */
export function stdoutWriter(fd = 1): (line: string) => void {
  let direct = false;
  try {
    const st = fstatSync(fd);
    direct = st.isFile() || (st.isCharacterDevice() && !isatty(fd));
  } catch {
    // no such fd: the stream's own handling
  }
  return direct ? (line) => void writeSync(fd, line) : (line) => void process.stdout.write(line);
}
