// exec/attach over SPDY: one stream per role named by its streamtype header,
// opened error first; stdin EOF is a FIN on the stdin stream.
import {
  encodeResize, HEADER_STREAM_TYPE, interpretErrorStream, SPDY_REMOTECOMMAND_PROTOCOLS, spdyProtocolVersion,
  STREAM_TYPE, type CommandOutcome,
} from '../../protocols/remotecommand/index.js';
import type { SpdyStream } from '../../protocols/spdy/index.js';
import { StreamingError } from './errors.js';
import { attachInput, ended, forwardResizes, pipeKeepOpen } from './pipe-helpers.js';
import { upgradeToSpdy } from './spdy-upgrade.js';
import type { RemoteCommandOptions } from './types.js';

export async function runRemoteCommandSpdy(url: string, opts: RemoteCommandOptions): Promise<CommandOutcome> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const { connection, protocol } = await upgradeToSpdy(url, SPDY_REMOTECOMMAND_PROTOCOLS, {
    method: 'POST', timeoutMs, tlsInsecure: opts.tlsInsecure,
  });
  // A server that names no protocol speaks the first one (channel.k8s.io).
  const version = spdyProtocolVersion(protocol) ?? 1;
  const open = (type: string): SpdyStream => {
    const s = connection.createStream({ [HEADER_STREAM_TYPE]: type });
    s.on('error', () => {}); // failures surface through the error stream or the connection
    return s;
  };
  let connectionError: Error | undefined;
  connection.on('error', (err) => { connectionError ??= err; });
  let stopResize = (): void => {};
  let detachStdin = (): void => {};
  try {
    const errorStream = open(STREAM_TYPE.error);
    const stdinStream = opts.stdin ? open(STREAM_TYPE.stdin) : undefined;
    const stdoutStream = opts.stdout ? open(STREAM_TYPE.stdout) : undefined;
    const stderrStream = opts.stderr && !opts.tty ? open(STREAM_TYPE.stderr) : undefined;
    const resizeStream = opts.tty && version >= 3 ? open(STREAM_TYPE.resize) : undefined;
    const all = [errorStream, stdinStream, stdoutStream, stderrStream, resizeStream].filter((s): s is SpdyStream => !!s);
    await Promise.all(all.map((s) => s.waitReply(timeoutMs)));

    const errorBytes: Buffer[] = [];
    errorStream.on('data', (c: Buffer) => errorBytes.push(c));
    const waits: Promise<void>[] = [ended(errorStream)];
    if (stdoutStream && opts.stdout) {
      pipeKeepOpen(stdoutStream, opts.stdout);
      waits.push(ended(stdoutStream));
    }
    if (stderrStream && opts.stderr) {
      pipeKeepOpen(stderrStream, opts.stderr);
      waits.push(ended(stderrStream));
    }
    if (stdinStream && opts.stdin) {
      // Write by hand rather than pipe so the caller's stream is never ended or destroyed by us.
      detachStdin = attachInput(opts.stdin, {
        write: (chunk, resume) => { if (!stdinStream.write(chunk)) stdinStream.once('drain', resume); else resume(); },
        end: () => stdinStream.end(),
      });
    }
    if (resizeStream) stopResize = forwardResizes(opts.resize, (size) => resizeStream.write(encodeResize(size)));

    // Every stream ends one way or another: FIN, RST_STREAM (kubelet resets them all when done) or the connection going.
    await Promise.all(waits);
    const status = Buffer.concat(errorBytes);
    // From v4 on the server always writes a status and says GOAWAY; neither means the session was lost.
    if (version >= 4 && status.length === 0 && (connectionError || !connection.goAwayReceived)) {
      const why = connectionError ? `: ${connectionError.message}` : '';
      throw new StreamingError(`lost the SPDY connection before the command finished${why}`, { cause: connectionError });
    }
    return interpretErrorStream(status, version >= 4 ? 'json' : 'text');
  } catch (err) {
    throw err instanceof StreamingError ? err : new StreamingError(`SPDY remote command failed: ${(err as Error).message}`, { cause: err });
  } finally {
    stopResize();
    detachStdin();
    connection.close();
    const sock = connection.socket;
    setTimeout(() => sock.destroy(), 1000).unref();
  }
}
