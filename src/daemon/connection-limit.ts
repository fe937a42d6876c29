// A cap on the gRPC connections open at once, over every listener. A connection past the cap
// gets a clear refusal an HTTP/2 client can show (the server's SETTINGS, then GOAWAY
// ENHANCE_YOUR_CALM with the reason as its debug data) and is closed; it never reaches grpc-js,
// so a client holding many silent connections costs the daemon one descriptor each, never
// more than the cap plus those being refused.
import type { Socket } from 'node:net';
import { h2Frame } from '../protocols/http2/frame.js';

const SETTINGS = 0x4;
const GOAWAY = 0x7;
/** RFC 9113 7: the peer may be generating excessive load. */
export const ENHANCE_YOUR_CALM = 0xb;
/** How long a refused client gets to read the refusal before its socket is dropped. */
const REFUSAL_LINGER_MS = 1_000;

export class ConnectionLimit {
  private open = 0;
  private refusedSinceLog = 0;
  private lastLog = 0;

  constructor(
    readonly max: number,
    /** Told of refusals at most once every 10 s, with how many there were since the last time. */
    private readonly onRefused: (refused: number) => void,
  ) {}

  get connections(): number {
    return this.open;
  }

  /** Counts `socket` until it closes and answers true, or refuses it and answers false. */
  admit(socket: Socket): boolean {
    if (this.open >= this.max) {
      refuse(socket, `isulats: too many connections (at most ${this.max} at once); try again later`);
      this.refusedSinceLog++;
      const now = Date.now();
      if (now - this.lastLog >= 10_000) {
        this.lastLog = now;
        this.onRefused(this.refusedSinceLog);
        this.refusedSinceLog = 0;
      }
      return false;
    }
    this.open++;
    socket.once('close', () => this.open--);
    return true;
  }
}

/** SETTINGS (a server's preface) then GOAWAY(last stream 0, ENHANCE_YOUR_CALM, `reason`), then close. */
function refuse(socket: Socket, reason: string): void {
  socket.on('error', () => undefined);
  socket.end(Buffer.concat([h2Frame(SETTINGS, 0, 0), goAwayPayload(reason)]));
  // Keep reading so the client's preface does not turn our close into a reset before it read the GOAWAY.
  socket.resume();
  setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS).unref();
}

function goAwayPayload(reason: string): Buffer {
  const debug = Buffer.from(reason, 'utf8');
  const payload = Buffer.alloc(8 + debug.length);
  payload.writeUInt32BE(0, 0);
  payload.writeUInt32BE(ENHANCE_YOUR_CALM, 4);
  debug.copy(payload, 8);
  return h2Frame(GOAWAY, 0, 0, payload);
}
