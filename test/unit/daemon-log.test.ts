import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openLogFile } from '../../src/daemon/log-file.js';
import { createLogger } from '../../src/daemon/logger.js';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('daemon logs', () => {
  it('writes one JSON object per line with time, level and fields, above the threshold only', () => {
    const lines: string[] = [];
    const log = createLogger('info', (l) => lines.push(l));
    log.debug('hidden');
    log.info('ready', { socket: '/x.sock', error: new Error('boom'), skipped: undefined });
    log.level = 'debug';
    log.debug('shown');
    expect(lines).toHaveLength(2);
    const first = JSON.parse(lines[0]);
    expect(first).toMatchObject({ level: 'info', msg: 'ready', socket: '/x.sock', error: 'boom' });
    expect(Object.keys(first)).not.toContain('skipped');
    expect(new Date(first.time).getTime()).toBeGreaterThan(0);
    expect(lines.every((l) => l.endsWith('\n') && !l.slice(0, -1).includes('\n'))).toBe(true);
  });

  it('rotates the log file at max-size and keeps max-file files', () => {
    dir = mkdtempSync('/tmp/ist-dlog-');
    const file = openLogFile({ dir, maxSize: 100, maxFile: 3, mode: 0o640 });
    for (let i = 0; i < 10; i++) file.write(`${String(i).repeat(40)}\n`);
    file.close();
    expect(readdirSync(dir).sort()).toEqual(['isulats.log', 'isulats.log.1', 'isulats.log.2']);
    expect(readFileSync(`${dir}/isulats.log`, 'utf8')).toBe(`${'8'.repeat(40)}\n${'9'.repeat(40)}\n`);
    expect(readFileSync(`${dir}/isulats.log.1`, 'utf8').startsWith('6')).toBe(true);
    expect(statSync(`${dir}/isulats.log`).mode & 0o777).toBe(0o640);
  });
});
