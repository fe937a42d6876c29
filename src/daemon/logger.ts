// Structured JSON-lines logs: {"time","level","msg",...fields}, one per line.
// Levels are iSulad's; the threshold can change at run time (SIGHUP).
import type { LogLevel } from '../runtime/config/daemon-config.js';
import { LOG_LEVELS } from '../runtime/config/daemon-config.js';

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
