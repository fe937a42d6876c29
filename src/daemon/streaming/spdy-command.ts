// exec/attach over SPDY/3.1 (kubelet's remotecommand server): the client
// opens one stream per role, named by its `streamtype` header; the session
// starts once every stream the request calls for is there. stdin EOF is the
// client's FIN; the status goes on the error stream, then every stream is
// ended and the session closed with GOAWAY.
import type { StreamIO } from '../../client/backend.js';
import {
  HEADER_STREAM_TYPE, ResizeDecoder, spdyProtocolVersion, STREAM_TYPE, type K8sStatus,
} from '../../protocols/remotecommand/index.js';
import type { SpdyConnection, SpdyStream } from '../../protocols/spdy/index.js';
import { encodeStatus } from './command-session.js';
import type { EarlySession } from './early-session.js';
import { SizeQueue } from './size-queue.js';
import { endAndFlush } from './ws-command.js';
import type { StreamOptions } from './types.js';

/** kubelet's default stream creation timeout. */
export const STREAM_CREATION_TIMEOUT_MS = 30_000;

/**
 * With `early`, the session has already started (see EarlySession) and goes on once the client has
 * opened its streams, one round trip after another (client-go waits for each reply).
 */
export async function serveCommandSpdy(
  connection: SpdyConnection, protocol: string, opts: StreamOptions, run: (io: StreamIO) => Promise<K8sStatus>,
  creationTimeoutMs = STREAM_CREATION_TIMEOUT_MS, early?: EarlySession,
): Promise<void> {
  const version = spdyProtocolVersion(protocol) ?? 1;
  const wantResize = opts.tty && version >= 3;
  const expected = 1 + Number(opts.stdin) + Number(opts.stdout) + Number(opts.stderr) + Number(wantResize);
  let streams: Map<string, SpdyStream>;
  try {
    streams = await collectStreams(connection, expected, creationTimeoutMs);
    if (!streams.has(STREAM_TYPE.error)) throw new Error('no error stream');
  } catch (error) {
    early?.abandon(`the client's streams never opened: ${(error as Error).message}`);
    connection.destroy();
    // An early session ends once the runtime has seen that the streams never came (and ran nothing).
    await early?.status;
    return;
  }
  const error = streams.get(STREAM_TYPE.error)!;
  const stdin = opts.stdin ? streams.get(STREAM_TYPE.stdin) : undefined;
  const stdout = opts.stdout ? streams.get(STREAM_TYPE.stdout) : undefined;
  const stderr = opts.stderr ? streams.get(STREAM_TYPE.stderr) : undefined;
  const resize = wantResize ? streams.get(STREAM_TYPE.resize) : undefined;
  let sizes: SizeQueue | undefined;
  if (resize) {
    sizes = new SizeQueue();
    const decoder = new ResizeDecoder();
    resize.on('data', (chunk: Buffer) => { for (const s of decoder.push(chunk)) sizes!.push(s); });
    resize.on('end', () => sizes!.end());
  }
  // The client going away ends stdin for the process too (the stdin stream ends with the connection).
  const gone = new Promise<undefined>((resolve) => connection.once('close', () => {
    sizes?.end();
    resolve(undefined);
  }));

  const streamsOpen = { stdin, stdout, stderr, resize: sizes, gone: gone.then(() => undefined) };
  // A client that went away cannot get a status: stop waiting (the runtime ends what it started: `gone`).
  const status = await Promise.race([early ? early.open(streamsOpen) : run({ ...streamsOpen, tty: opts.tty }), gone]);
  if (!status) return;
  await Promise.all([stdout, stderr].map((w) => (w ? endAndFlush(w) : undefined)));
  const statusBytes = encodeStatus(status, version >= 4 ? 'json' : 'text');
  if (statusBytes) error.write(statusBytes);
  await endAndFlush(error);
  sizes?.end();
  for (const s of streams.values()) if (!s.writableEnded) s.end();
  await connection.close();
}

/** Answers each stream the client opens and resolves once `expected` distinct roles are open. */
function collectStreams(connection: SpdyConnection, expected: number, timeoutMs: number): Promise<Map<string, SpdyStream>> {
  return new Promise((resolve, reject) => {
    const streams = new Map<string, SpdyStream>();
    const done = (err?: Error): void => {
      clearTimeout(timer);
      connection.off('stream', onStream);
      connection.off('close', onClose);
      if (err) reject(err);
      else resolve(streams);
    };
    const onStream = (stream: SpdyStream): void => {
      stream.on('error', () => {});
      const type = stream.headers[HEADER_STREAM_TYPE] ?? '';
      if (streams.has(type) || !Object.values(STREAM_TYPE).includes(type as never)) {
        stream.reset();
        return;
      }
      stream.respond();
      streams.set(type, stream);
      if (streams.size === expected) done();
    };
    const onClose = (): void => done(new Error('connection closed before all streams were opened'));
    const timer = setTimeout(() => done(new Error(`timed out waiting for ${expected} streams`)), timeoutMs);
    connection.on('stream', onStream);
    connection.once('close', onClose);
  });
}
