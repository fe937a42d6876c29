// A large runtime.v1 CreateContainerRequest decoded in slices, so one 2 MB config does not hold
// the event loop for the whole decode. protobufjs decodes a message in one synchronous step; for
// 100k env vars that is a message object, a plain object and a Buffer per variable (about a
// second under --lite-mode on a loaded machine), while every other client waits.
// Here the envs (ContainerConfig field 6, the only field that grows that large in kubelet's
// configs) are cut out of the wire bytes; protobufjs decodes the rest (small), and the envs are
// read by hand, a slice at a time, yielding the event loop between slices. Each KeyValue.value
// comes out as a string (UTF-8, invalid bytes as U+FFFD like TextDecoder): the engine takes a
// string there as it does from runtime.v1alpha2, and one string costs less than a Buffer view.
// Anything unusual (groups, config repeated, malformed bytes) goes to protobufjs whole, so
// errors read as they always did.

/** Requests smaller than this decode in one step: only a config of thousands of env vars reaches it. */
export const CHUNKED_DECODE_BYTES = 256 * 1024;

/** Env vars read between two yields of the event loop. */
export const ENV_SLICE = 2048;

const CONFIG_FIELD = 2; // CreateContainerRequest.config
const ENVS_FIELD = 6; // ContainerConfig.envs
const LEN = 2; // length-delimited wire type

/** A field on the wire: number, wire type, its whole span (tag included) and its payload's. */
interface WireField {
  id: number;
  wireType: number;
  start: number;
  payloadStart: number;
  end: number;
}

class Malformed extends Error {}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `decode` (protobufjs, whole message in one step) for small requests; for a large one, the
 * same object with config.envs read in slices between event-loop turns.
 */
export function chunkedCreateDecoder(decode: (bytes: Buffer) => unknown): (bytes: Buffer) => Promise<unknown> {
  return async (bytes) => {
    if (bytes.length < CHUNKED_DECODE_BYTES) return decode(bytes);
    try {
      const config = configField(bytes);
      if (!config) return decode(bytes);
      const kept: Buffer[] = [];
      let keptLength = 0;
      const envs: { key: string; value: string }[] = [];
      const reader = new FieldReader(bytes, config.payloadStart, config.end);
      for (let f = reader.next(); f; f = reader.next()) {
        if (f.id === ENVS_FIELD && f.wireType === LEN) {
          envs.push(keyValue(bytes, f.payloadStart, f.end));
          if (envs.length % ENV_SLICE === 0) await nextTurn();
        } else {
          kept.push(bytes.subarray(f.start, f.end));
          keptLength += f.end - f.start;
        }
      }
      // The request again, its config without the envs: small, so protobufjs decodes it at once.
      const rest = Buffer.concat([
        bytes.subarray(0, config.start), Buffer.from([...varint(CONFIG_FIELD << 3 | LEN), ...varint(keptLength)]),
        ...kept, bytes.subarray(config.end),
      ]);
      const request = decode(rest) as { config?: { envs?: unknown[] } | null };
      if (!request.config) return decode(bytes);
      request.config.envs = envs;
      return request;
    } catch (err) {
      if (err instanceof Malformed) return decode(bytes); // throws as protobufjs would
      throw err;
    }
  };
}

/** The request's one config field; undefined when there is none or several (protobufjs merges those). */
function configField(bytes: Buffer): WireField | undefined {
  let config: WireField | undefined;
  const reader = new FieldReader(bytes, 0, bytes.length);
  for (let f = reader.next(); f; f = reader.next()) {
    if (f.id !== CONFIG_FIELD) continue;
    if (config || f.wireType !== LEN) return undefined;
    config = f;
  }
  return config;
}

/** One KeyValue; proto3 scalars: the last occurrence of a field wins, unknown fields are skipped. */
function keyValue(bytes: Buffer, start: number, end: number): { key: string; value: string } {
  let key = '';
  let value = '';
  const reader = new FieldReader(bytes, start, end);
  for (let f = reader.next(); f; f = reader.next()) {
    if (f.wireType !== LEN) continue;
    if (f.id === 1) key = bytes.toString('utf8', f.payloadStart, f.end);
    else if (f.id === 2) value = bytes.toString('utf8', f.payloadStart, f.end);
  }
  return { key, value };
}

/** The fields of a message occupying bytes[start, end), one at a time. */
class FieldReader {
  constructor(private readonly bytes: Buffer, private at: number, private readonly end: number) {}

  next(): WireField | undefined {
    const { bytes, end } = this;
    if (this.at >= end) return undefined;
    const start = this.at;
    const [tag, afterTag] = readVarint(bytes, start, end);
    const id = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (id === 0) throw new Malformed();
    let payloadStart = afterTag;
    let fieldEnd: number;
    switch (wireType) {
      case 0: fieldEnd = readVarint(bytes, afterTag, end)[1]; break;
      case 1: fieldEnd = afterTag + 8; break;
      case 2: {
        const [length, afterLength] = readVarint(bytes, afterTag, end);
        payloadStart = afterLength;
        fieldEnd = afterLength + length;
        break;
      }
      case 5: fieldEnd = afterTag + 4; break;
      default: throw new Malformed(); // groups (3, 4) and invalid types
    }
    if (fieldEnd > end) throw new Malformed();
    this.at = fieldEnd;
    return { id, wireType, start, payloadStart, end: fieldEnd };
  }
}

/** A varint of at most 7 bytes (enough for any length or tag here) and the offset after it. */
function readVarint(bytes: Buffer, at: number, end: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 7 && at < end; i++) {
    const b = bytes[at++]!;
    value += (b & 0x7f) * scale;
    if (b < 0x80) return [value, at];
    scale *= 128;
  }
  throw new Malformed();
}

function varint(value: number): number[] {
  const out: number[] = [];
  while (value >= 0x80) {
    out.push((value % 128) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}
