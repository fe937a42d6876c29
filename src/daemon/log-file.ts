// The daemon's log file for log-driver "file": appends lines, and once the
// file passes max-size renames isulats.log -> .1 -> ... -> .<max-file - 1>,
// dropping the oldest, as iSulad's log-opts describe. Writes are synchronous:
// log lines are small, and a crash must not lose the lines before it.
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface LogFileOptions {
  dir: string;
  name?: string;
  mode?: number;
  /** Bytes; no rotation when absent. */
  maxSize?: number;
  /** Files kept including the live one (default 1: the live file is truncated by rotation). */
  maxFile?: number;
}

export function openLogFile(opts: LogFileOptions): { write(line: string): void; close(): void; path: string } {
  mkdirSync(opts.dir, { recursive: true });
  const path = join(opts.dir, opts.name ?? 'isulats.log');
  const mode = opts.mode ?? 0o600;
  let fd = openSync(path, 'a', mode);
  let size = fstatSync(fd).size;

  const rotate = () => {
    closeSync(fd);
    const keep = Math.max(1, opts.maxFile ?? 1);
    if (keep === 1) rmSync(path, { force: true });
    else {
      rmSync(`${path}.${keep - 1}`, { force: true });
      for (let i = keep - 2; i >= 1; i--) if (existsSync(`${path}.${i}`)) renameSync(`${path}.${i}`, `${path}.${i + 1}`);
      renameSync(path, `${path}.1`);
    }
    fd = openSync(path, 'a', mode);
    size = 0;
  };

  return {
    path,
    write(line: string) {
      const bytes = Buffer.from(line);
      if (opts.maxSize && size > 0 && size + bytes.length > opts.maxSize) rotate();
      writeSync(fd, bytes);
      size += bytes.length;
    },
    close() {
      closeSync(fd);
    },
  };
}
