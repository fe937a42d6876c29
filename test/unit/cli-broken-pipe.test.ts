// A reader that goes away early ends the CLI quietly with 0; any other stdout error stays fatal.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { exitQuietlyOnBrokenPipe, isBrokenPipe } from '../../src/cli/broken-pipe.js';

const errno = (code: string) => Object.assign(new Error(`write ${code}`), { code });

describe('exitQuietlyOnBrokenPipe', () => {
  it('exits 0 on EPIPE', () => {
    const out = new PassThrough();
    const codes: number[] = [];
    exitQuietlyOnBrokenPipe(out, (code) => codes.push(code));
    out.emit('error', errno('EPIPE'));
    expect(codes).toEqual([0]);
  });

  it('rethrows anything else', () => {
    const out = new PassThrough();
    exitQuietlyOnBrokenPipe(out, () => undefined);
    expect(() => out.emit('error', errno('EIO'))).toThrow('write EIO');
  });

  it('leaves the error to a command that listens for it, and can be undone', () => {
    const out = new PassThrough();
    const codes: number[] = [];
    const undo = exitQuietlyOnBrokenPipe(out, (code) => codes.push(code));
    const own = () => undefined;
    out.on('error', own);
    out.emit('error', errno('EPIPE'));
    expect(codes).toEqual([]);
    out.off('error', own);
    undo();
    expect(out.listenerCount('error')).toBe(0);
  });

  it('tells EPIPE from other errors and non-errors', () => {
    expect(isBrokenPipe(errno('EPIPE'))).toBe(true);
    expect(isBrokenPipe(errno('ECONNRESET'))).toBe(false);
    expect(isBrokenPipe(undefined)).toBe(false);
  });
});
