// The connection-scoped HPACK decoder (src/protocols/http2/hpack-decoder.ts) and the literal
// encoder: table state across blocks, eviction, size updates within what we advertise, the
// decoded list bound; checked against Node's own HPACK (nghttp2's deflater, through node:http2).
import { describe, expect, it } from 'vitest';
import { HpackDecodeError, HpackDecoder } from '../../src/protocols/http2/hpack-decoder.js';
import { hpackEncode, hpackInt } from '../../src/protocols/http2/hpack-encoder.js';
import { huffmanEncode } from '../../src/protocols/http2/huffman.js';

/** "Literal with incremental indexing, new name" (both strings raw, short). */
function indexed(name: string, value: string): Buffer {
  return Buffer.concat([Buffer.from([0x40, name.length]), Buffer.from(name), hpackInt(value.length, 7, 0), Buffer.from(value)]);
}

describe('HPACK decoder', () => {
  it('keeps one dynamic table across the blocks of a connection', () => {
    const d = new HpackDecoder();
    expect(d.decode(Buffer.concat([Buffer.from([0x83]), indexed('x-a', '1')]))).toEqual([[':method', 'POST'], ['x-a', '1']]);
    // Index 62 is the newest dynamic entry.
    expect(d.decode(Buffer.from([0xbe]))).toEqual([['x-a', '1']]);
    d.decode(indexed('x-b', '2'));
    expect(d.decode(Buffer.from([0xbe, 0xbf]))).toEqual([['x-b', '2'], ['x-a', '1']]);
    expect(d.entries).toBe(2);
  });

  it('decodes Huffman strings (cached or not) and literals that name a static entry', () => {
    const d = new HpackDecoder();
    const path = huffmanEncode('/runtime.v1.RuntimeService/Version');
    const block = Buffer.concat([Buffer.from([0x04]), hpackInt(path.length, 7, 0x80), path]);
    expect(d.decode(block)).toEqual([[':path', '/runtime.v1.RuntimeService/Version']]);
    expect(d.decode(block)).toEqual([[':path', '/runtime.v1.RuntimeService/Version']]);
  });

  it('evicts the oldest entries past the table size, and an entry larger than the table empties it', () => {
    const d = new HpackDecoder(100);
    d.decode(indexed('a', 'x'.repeat(30))); // 63 octets
    d.decode(indexed('b', 'y'.repeat(30))); // evicts a
    expect(d.entries).toBe(1);
    expect(d.decode(Buffer.from([0xbe]))).toEqual([['b', 'y'.repeat(30)]]);
    d.decode(indexed('c', 'z'.repeat(100)));
    expect(d.entries).toBe(0);
    expect(() => d.decode(Buffer.from([0xbe]))).toThrow(HpackDecodeError);
  });

  it('takes a size update within what we advertised, first in a block; refuses one above it or after a field', () => {
    const d = new HpackDecoder(4096);
    d.decode(indexed('a', 'b'));
    d.decode(Buffer.from([0x20])); // size 0: the table empties
    expect(d.entries).toBe(0);
    expect(() => new HpackDecoder(4096).decode(hpackInt(4097, 5, 0x20))).toThrow(/above 4096/);
    expect(() => new HpackDecoder(4096).decode(Buffer.concat([hpackInt(4096, 5, 0x20), Buffer.from([0x82])]))).not.toThrow();
    expect(() => new HpackDecoder().decode(Buffer.from([0x82, 0x20]))).toThrow(/after a field/);
  });

  it('stops a block whose decoded list passes the bound: one large entry referenced many times', () => {
    const d = new HpackDecoder(4096, 16_384);
    d.decode(indexed('big', 'v'.repeat(3000)));
    expect(d.decode(Buffer.alloc(5, 0xbe))).toHaveLength(5);
    let err: unknown;
    try {
      d.decode(Buffer.alloc(6, 0xbe));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HpackDecodeError);
    expect((err as HpackDecodeError).tooLarge).toBe(true);
  });

  it('refuses truncated blocks, bad indexes and integers past 2^28', () => {
    for (const bad of [Buffer.from([0x80]), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]), Buffer.from([0x04, 0x05, 0x61]), Buffer.from([0xc0])]) {
      expect(() => new HpackDecoder().decode(bad), bad.toString('hex')).toThrow(HpackDecodeError);
    }
  });

  it('reads back what the encoder writes, values of any length', () => {
    const fields: Array<[string, string]> = [[':status', '200'], ['grpc-message', 'x'.repeat(300)], ['content-type', 'application/grpc']];
    expect(new HpackDecoder().decode(hpackEncode(fields))).toEqual(fields);
  });
});
