// A unix socket connection for the fast path, on libuv's pipe handle itself when Node exposes it
// (process.binding('pipe_wrap') and ('stream_wrap'), both on Node 20's allow-list): loading
// node:net and its stream machinery costs a CLI call about 5 ms of CPU, 4% of a bare Node start,
// for a connection that carries one write and a few reads. Where the bindings are not there or do
// not look as expected (another Node), node:net serves, with the same callbacks.
import type { Socket } from 'node:net';

export interface UnixStreamHandlers {
  data(chunk: Buffer): void;
  /** The connection ended: refused, reset, closed by the peer, or closed here. Called once. */
  end(): void;
}

export interface UnixStream {
  write(bytes: Buffer): void;
  close(): void;
}

interface StreamBindings {
  Pipe: new (type: number) => PipeHandle;
  PipeConnectWrap: new () => { oncomplete?: (status: number) => void };
  socketType: number;
  WriteWrap: new () => WriteReq;
  state: Int32Array;
  kReadBytesOrError: number;
  kArrayBufferOffset: number;
}

interface PipeHandle {
  connect(req: object, path: string): number;
  readStart(): number;
  writeBuffer(req: WriteReq, data: Buffer): number;
  close(cb?: () => void): void;
  onread: (buf: ArrayBuffer | undefined) => void;
}

interface WriteReq {
  handle?: PipeHandle;
  oncomplete?: (status: number) => void;
  buffer?: Buffer;
  async?: boolean;
}

let bindings: StreamBindings | null | undefined;

/** The libuv bindings, or null when this Node does not offer them in the shape used here. */
function streamBindings(): StreamBindings | null {
  if (bindings !== undefined) return bindings;
  bindings = null;
  try {
    // The deprecation (DEP0111) is documentation-only; --pending-deprecation would print a warning.
    const pending = process.execArgv.includes('--pending-deprecation') || process.env.NODE_OPTIONS?.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1';
    if (pending) return bindings;
    const binding = (process as unknown as { binding(name: string): Record<string, unknown> }).binding;
    const pipe = binding('pipe_wrap') as { Pipe?: unknown; PipeConnectWrap?: unknown; constants?: { SOCKET?: number } };
    const stream = binding('stream_wrap') as { WriteWrap?: unknown; streamBaseState?: unknown; kReadBytesOrError?: number; kArrayBufferOffset?: number };
    if (typeof pipe.Pipe !== 'function' || typeof pipe.PipeConnectWrap !== 'function' || typeof pipe.constants?.SOCKET !== 'number') return bindings;
    if (typeof stream.WriteWrap !== 'function' || !(stream.streamBaseState instanceof Int32Array)) return bindings;
    if (typeof stream.kReadBytesOrError !== 'number' || typeof stream.kArrayBufferOffset !== 'number') return bindings;
    bindings = {
      Pipe: pipe.Pipe as StreamBindings['Pipe'],
      PipeConnectWrap: pipe.PipeConnectWrap as StreamBindings['PipeConnectWrap'],
      socketType: pipe.constants.SOCKET,
      WriteWrap: stream.WriteWrap as StreamBindings['WriteWrap'],
      state: stream.streamBaseState,
      kReadBytesOrError: stream.kReadBytesOrError,
      kArrayBufferOffset: stream.kArrayBufferOffset,
    };
  } catch {
    bindings = null;
  }
  return bindings;
}

/** Connects to the unix socket at `path`; `bytes` go out once it is connected. */
export function openUnixStream(path: string, first: Buffer, on: UnixStreamHandlers): UnixStream {
  const b = process.env.ISULATS_FAST_NET === '1' ? null : streamBindings();
  return b ? onPipeHandle(b, path, first, on) : onNet(path, first, on);
}

const ignoreRead = (): void => undefined;

function onPipeHandle(b: StreamBindings, path: string, first: Buffer, on: UnixStreamHandlers): UnixStream {
  const handle = new b.Pipe(b.socketType);
  let open = true;
  const close = () => {
    if (!open) return;
    open = false;
    // A function, never undefined: the native setter aborts the process on anything else.
    handle.onread = ignoreRead;
    handle.close();
    on.end();
  };
  // Until the connect completes, writes wait behind the first bytes.
  let pending: Buffer[] | undefined = [first];
  const write = (bytes: Buffer) => {
    if (!open) return;
    if (pending) {
      pending.push(bytes);
      return;
    }
    const req = new b.WriteWrap();
    req.handle = handle;
    req.buffer = bytes; // held until the write completes (net does the same)
    req.async = false;
    req.oncomplete = (status) => {
      if (status < 0) close();
    };
    if (handle.writeBuffer(req, bytes) < 0) close();
  };
  const connectReq = new b.PipeConnectWrap();
  connectReq.oncomplete = (status) => {
    if (!open) return;
    if (status < 0) return close();
    handle.onread = (buf) => {
      const n = b.state[b.kReadBytesOrError]!;
      if (n < 0) return close(); // EOF or an error
      if (n > 0 && buf) on.data(Buffer.from(buf, b.state[b.kArrayBufferOffset]!, n));
    };
    if (handle.readStart() < 0) return close();
    const queued = pending!;
    pending = undefined;
    write(queued.length === 1 ? queued[0]! : Buffer.concat(queued));
  };
  if (handle.connect(connectReq, path) < 0) {
    // Refused at once (a bad path): reported after the caller has its handle, as net does.
    queueMicrotask(close);
  }
  return { write, close };
}

/** node:net, loaded only here: loading it is the cost the pipe handle saves. */
function onNet(path: string, first: Buffer, on: UnixStreamHandlers): UnixStream {
  let sock: Socket | undefined;
  let open = true;
  const pending = [first];
  const close = () => {
    if (!open) return;
    open = false;
    sock?.destroy();
    on.end();
  };
  import('node:net').then(({ connect }) => {
    if (!open) return;
    sock = connect(path);
    sock.on('error', close);
    sock.on('close', close);
    sock.on('data', (chunk: Buffer) => open && on.data(chunk));
    for (const bytes of pending.splice(0)) sock.write(bytes);
  }, close);
  return {
    write: (bytes) => {
      if (!open) return;
      if (sock) sock.write(bytes);
      else pending.push(bytes);
    },
    close,
  };
}
