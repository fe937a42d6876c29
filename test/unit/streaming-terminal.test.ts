import { describe, expect, it, vi } from 'vitest';
import { EventEmitter } from 'node:events';
import { enterRawMode, setupTerminal, terminalSize, watchTerminalSize, type ProcessLike } from '../../src/client/streaming/terminal.js';

class FakeTtyIn {
  isTTY = true;
  isRaw = false;
  modes: boolean[] = [];
  setRawMode(mode: boolean): this {
    this.isRaw = mode;
    this.modes.push(mode);
    return this;
  }
}

class FakeTtyOut extends EventEmitter {
  isTTY = true;
  constructor(public columns: number, public rows: number) {
    super();
  }
  resizeTo(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

function fakeProcess(): ProcessLike & EventEmitter & { killed: string[]; exited: number[] } {
  const p = new EventEmitter() as EventEmitter & ProcessLike & { killed: string[]; exited: number[] };
  p.killed = [];
  p.exited = [];
  Object.assign(p, {
    pid: 4242,
    kill: (_pid: number, sig: string) => { p.killed.push(sig); return true; },
    exit: (code: number) => { p.exited.push(code); },
  });
  return p;
}

describe('raw mode', () => {
  it('enters raw mode on a TTY and restores it once, however often undone', () => {
    const tty = new FakeTtyIn();
    const proc = fakeProcess();
    const restore = enterRawMode(tty, proc);
    expect(tty.isRaw).toBe(true);
    restore();
    restore();
    expect(tty.modes).toEqual([true, false]);
    expect(proc.listenerCount('exit')).toBe(0);
  });

  it('leaves a stdin that is not a terminal alone', () => {
    const notTty = Object.assign(new FakeTtyIn(), { isTTY: false });
    enterRawMode(notTty, fakeProcess())();
    expect(notTty.modes).toEqual([]);
  });

  it('restores the terminal when the process exits without calling the undo', () => {
    const tty = new FakeTtyIn();
    const proc = fakeProcess();
    enterRawMode(tty, proc);
    proc.emit('exit', 1);
    expect(tty.isRaw).toBe(false);
  });

  it.each(['SIGTERM', 'SIGHUP', 'SIGINT'])('restores the terminal on %s and re-raises it', (sig) => {
    const tty = new FakeTtyIn();
    const proc = fakeProcess();
    enterRawMode(tty, proc);
    proc.emit(sig, sig);
    expect(tty.isRaw).toBe(false);
    expect(proc.killed).toEqual([sig]);
    expect(proc.listenerCount(sig)).toBe(0);
  });
});

describe('terminal size', () => {
  it('yields the current size, then each change', async () => {
    const out = new FakeTtyOut(80, 24);
    const ac = new AbortController();
    const it = watchTerminalSize(out, ac.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ width: 80, height: 24 });
    const next = it.next();
    out.resizeTo(100, 40);
    expect((await next).value).toEqual({ width: 100, height: 40 });
    const last = it.next();
    ac.abort();
    expect((await last).done).toBe(true);
    expect(out.listenerCount('resize')).toBe(0);
  });

  it('keeps only the latest of several quick changes', async () => {
    const out = new FakeTtyOut(80, 24);
    const it = watchTerminalSize(out)[Symbol.asyncIterator]();
    await it.next();
    out.resizeTo(90, 30);
    out.resizeTo(91, 31);
    expect((await it.next()).value).toEqual({ width: 91, height: 31 });
    await it.return(undefined);
  });

  it('has no size for an output that is not a terminal', () => {
    expect(terminalSize({ on: () => undefined, off: () => undefined })).toBeUndefined();
  });
});

describe('setupTerminal', () => {
  it('with a TTY goes raw and feeds sizes, so Ctrl-C goes to the remote side as a byte', async () => {
    const tty = new FakeTtyIn();
    const out = new FakeTtyOut(120, 50);
    const proc = fakeProcess();
    const session = setupTerminal({ tty: true, stdin: tty, stdout: out, proc });
    expect(tty.isRaw).toBe(true);
    expect(proc.listenerCount('SIGINT')).toBe(1); // only the restore-and-re-raise guard
    const it = session.resize![Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ width: 120, height: 50 });
    session.restore();
    expect(tty.isRaw).toBe(false);
    expect((await it.next()).done).toBe(true);
  });

  it('without a TTY ends the client on SIGINT after restoring', () => {
    const tty = new FakeTtyIn();
    const proc = fakeProcess();
    const onInterrupt = vi.fn();
    const session = setupTerminal({ tty: false, stdin: tty, stdout: new FakeTtyOut(80, 24), proc, onInterrupt });
    expect(tty.modes).toEqual([]);
    expect(session.resize).toBeUndefined();
    proc.emit('SIGINT', 'SIGINT');
    expect(session.interrupted.aborted).toBe(true);
    expect(onInterrupt).toHaveBeenCalledOnce();
    expect(proc.listenerCount('SIGINT')).toBe(0);
  });

  it('without a TTY exits 130 on SIGINT by default', () => {
    const proc = fakeProcess();
    setupTerminal({ tty: false, stdin: new FakeTtyIn(), stdout: new FakeTtyOut(80, 24), proc });
    proc.emit('SIGINT', 'SIGINT');
    expect(proc.exited).toEqual([130]);
  });
});
