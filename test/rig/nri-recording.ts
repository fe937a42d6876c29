// Records NRI sessions byte for byte and reads them back as ttrpc calls. The
// proxy sits between plugins and a runtime's NRI socket: each plugin that
// connects is one session, and every chunk read in either direction is kept
// with its time, unchanged, so a recording replays exactly what was sent.
import { rmSync } from 'node:fs';
import net from 'node:net';
import { FrameDecoder, MessageType, loadEnvelopes, type Frame } from '../../src/nri/ttrpc/index.js';
import { MUX_HEADER_LENGTH, PLUGIN_SERVICE_CONN, RUNTIME_SERVICE_CONN } from '../../src/nri/mux/mux.js';

export type Side = 'plugin' | 'runtime';

export interface RecordedChunk {
  /** Which plugin connection (in order of connecting). */
  session: number;
  from: Side;
  /** Milliseconds since the proxy started. */
  atMs: number;
  /** The bytes as read, base64. */
  bytes: string;
}

export interface RecordingProxy {
  socketPath: string;
  chunks: RecordedChunk[];
  close(): Promise<void>;
}

/** Listens on `socketPath` and relays each connection to `upstream`, recording both directions. */
export async function startRecordingProxy(socketPath: string, upstream: string): Promise<RecordingProxy> {
  const started = process.hrtime.bigint();
  const chunks: RecordedChunk[] = [];
  const sockets = new Set<net.Socket>();
  let sessions = 0;
  const record = (session: number, from: Side) => (data: Buffer) =>
    chunks.push({ session, from, atMs: Number(process.hrtime.bigint() - started) / 1e6, bytes: data.toString('base64') });
  const track = (s: net.Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server = net.createServer((plugin) => {
    const session = sessions++;
    const runtime = net.connect(upstream);
    track(plugin);
    track(runtime);
    plugin.on('data', record(session, 'plugin'));
    runtime.on('data', record(session, 'runtime'));
    plugin.pipe(runtime);
    runtime.pipe(plugin);
    // Either end going away ends the session for the other, as a direct connection would.
    plugin.once('close', () => runtime.destroy());
    runtime.once('close', () => plugin.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  return {
    socketPath,
    chunks,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      rmSync(socketPath, { force: true });
    },
  };
}

/** One ttrpc call found in a recording: its request and, when one came, its response. */
export interface RecordedCall {
  session: number;
  /** The runtime calls the Plugin service (mux connection 1); the plugin calls the Runtime service (2). */
  caller: Side;
  streamId: number;
  service: string;
  method: string;
  /** The ttrpc frame payloads as sent (request and response envelopes). */
  requestEnvelope: Buffer;
  responseEnvelope?: Buffer;
  /** The messages inside the envelopes. */
  request: Buffer;
  response?: Buffer;
  status?: { code: number; message: string } | null;
  requestAtMs: number;
  responseAtMs?: number;
}

/** Splits each session's two byte streams into mux frames, then ttrpc frames, then calls, in recorded order. */
export async function decodeRecording(chunks: readonly RecordedChunk[]): Promise<RecordedCall[]> {
  const env = await loadEnvelopes();
  const calls: RecordedCall[] = [];
  const open = new Map<string, RecordedCall>();
  const streams = new Map<string, (chunk: Buffer) => void>();
  let now = 0;

  const onFrame = (session: number, from: Side, conn: number, f: Frame): void => {
    // Requests on connection 1 come from the runtime, on connection 2 from the plugin.
    const caller: Side = conn === PLUGIN_SERVICE_CONN ? 'runtime' : 'plugin';
    const key = `${session}/${conn}/${f.streamId}`;
    if (f.type === MessageType.request && from === caller) {
      const req = env.decodeRequest(f.payload);
      const call: RecordedCall = {
        session, caller, streamId: f.streamId, service: req.service, method: req.method,
        requestEnvelope: f.payload, request: req.payload, requestAtMs: now,
      };
      calls.push(call);
      open.set(key, call);
    } else if (f.type === MessageType.response && from !== caller) {
      const call = open.get(key);
      if (!call) throw new Error(`recording: response without request (session ${session}, conn ${conn}, stream ${f.streamId})`);
      const res = env.decodeResponse(f.payload);
      Object.assign(call, { responseEnvelope: f.payload, response: res.payload, status: res.status, responseAtMs: now });
      open.delete(key);
    } else {
      throw new Error(`recording: unexpected ttrpc frame type ${f.type} from the ${from} on connection ${conn}`);
    }
  };

  const demux = (session: number, from: Side): ((chunk: Buffer) => void) => {
    const decoders = new Map<number, FrameDecoder>();
    let pending = Buffer.alloc(0);
    return (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= MUX_HEADER_LENGTH) {
        const conn = pending.readUInt32BE(0);
        const length = pending.readUInt32BE(4);
        if (pending.length < MUX_HEADER_LENGTH + length) break;
        if (conn !== PLUGIN_SERVICE_CONN && conn !== RUNTIME_SERVICE_CONN) throw new Error(`recording: mux connection ${conn}`);
        let d = decoders.get(conn);
        if (!d) {
          d = new FrameDecoder({
            frame: (f) => onFrame(session, from, conn, f),
            oversized: (id) => { throw new Error(`recording: oversized ttrpc message on stream ${id}`); },
          });
          decoders.set(conn, d);
        }
        d.push(pending.subarray(MUX_HEADER_LENGTH, MUX_HEADER_LENGTH + length));
        pending = pending.subarray(MUX_HEADER_LENGTH + length);
      }
    };
  };

  for (const c of chunks) {
    const key = `${c.session}/${c.from}`;
    const push = streams.get(key) ?? demux(c.session, c.from);
    streams.set(key, push);
    now = c.atMs;
    push(Buffer.from(c.bytes, 'base64'));
  }
  return calls;
}
