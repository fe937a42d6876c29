// The code a daemon runs never asks ICU for locale data: the first localeCompare creates a
// collator, toLocaleString or Intl a formatter, and either maps ICU's data into the process for
// good (2 to 5 MB of RSS). Daemon-side code compares and formats strings without a locale.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DAEMON_SIDE = ['src/runtime', 'src/daemon', 'src/api', 'src/client', 'src/nri', 'src/protocols', 'src/util'];
const LOCALE_APIS = /\.localeCompare\(|\bIntl\.|\.toLocale\w*String\(/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name));
}

describe('daemon-side code and ICU', () => {
  it('uses no locale-aware string API', () => {
    const offending = DAEMON_SIDE.flatMap(sources).flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').map((line, i) => ({ file, line: i + 1, text: line }))
        .filter((l) => LOCALE_APIS.test(l.text) && !/^\s*(\/\/|\*)/.test(l.text)));
    expect(offending.map((o) => `${o.file}:${o.line}: ${o.text.trim()}`)).toEqual([]);
  });
});
