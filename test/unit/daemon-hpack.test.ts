import { describe, expect, it } from 'vitest';
import { HpackError, huffmanDecode, huffmanEncode } from '../../src/protocols/http2/huffman.js';
import { encodeHeaderBlock, HpackDecoder } from '../rig/hpack-reference.js';
import { isValidAuthority, RequestHeaderRewriter } from '../../src/daemon/authority-fix.js';
import { CLIENT_PREFACE, h2Frame } from '../rig/h2-frames.js';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('HPACK Huffman code', () => {
  it.each([
    ['www.example.com', 'f1e3 c2e5 f23a 6ba0 ab90 f4ff'],
    ['no-cache', 'a8eb 1064 9cbf'],
    ['custom-key', '25a8 49e9 5ba9 7d7f'],
    ['custom-value', '25a8 49e9 5bb8 e8b4 bf'],
    ['302', '6402'],
    ['Mon, 21 Oct 2013 20:13:21 GMT', 'd07a be94 1054 d444 a820 0595 040b 8166 e082 a62d 1bff'],
  ])('matches RFC 7541 appendix C for %j', (text, coded) => {
    expect(huffmanEncode(text).toString('hex')).toBe(hex(coded).toString('hex'));
    expect(huffmanDecode(hex(coded))).toBe(text);
  });

  it('round-trips every octet', () => {
    const all = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));
    expect(huffmanDecode(huffmanEncode(all))).toBe(all);
  });

  it('rejects padding that is not a prefix of EOS', () => {
    expect(() => huffmanDecode(Buffer.from([0x00]))).toThrow(HpackError);
  });
});

describe('HPACK decoder', () => {
  it('decodes the RFC 7541 C.4 request sequence with its dynamic table', () => {
    const d = new HpackDecoder();
    expect(d.decode(hex('8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff'))).toEqual([
      { name: ':method', value: 'GET' }, { name: ':scheme', value: 'http' }, { name: ':path', value: '/' },
      { name: ':authority', value: 'www.example.com' },
    ]);
    expect(d.decode(hex('8286 84be 5886 a8eb 1064 9cbf'))).toContainEqual({ name: 'cache-control', value: 'no-cache' });
    const third = d.decode(hex('8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf'));
    expect(third).toEqual([
      { name: ':method', value: 'GET' }, { name: ':scheme', value: 'https' }, { name: ':path', value: '/index.html' },
      { name: ':authority', value: 'www.example.com' }, { name: 'custom-key', value: 'custom-value' },
    ]);
  });

  it('reads back what the encoder writes, never-indexed flags included', () => {
    const fields = [
      { name: ':authority', value: '/run/x.sock' },
      { name: 'x-long', value: 'v'.repeat(300) },
      { name: 'authorization', value: 'secret', neverIndex: true },
    ];
    expect(new HpackDecoder().decode(encodeHeaderBlock(fields))).toEqual(fields);
  });

  it('rejects an index past the tables', () => {
    expect(() => new HpackDecoder().decode(Buffer.from([0xbe]))).toThrow(/out of range/);
  });
});

/** A client HEADERS frame (END_HEADERS) carrying `block`. */
function headersFrame(streamId: number, block: Buffer, flags = 0x4): Buffer {
  const h = Buffer.alloc(9);
  h.writeUIntBE(block.length, 0, 3);
  h[3] = 0x1;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return Buffer.concat([h, block]);
}

const frame = h2Frame;

/** Splits the rewritten output back into frames. */
function frames(buf: Buffer): Array<{ type: number; flags: number; streamId: number; payload: Buffer }> {
  const out = [];
  let pos = 0;
  while (pos < buf.length) {
    const len = buf.readUIntBE(pos, 3);
    out.push({ type: buf[pos + 3], flags: buf[pos + 4], streamId: buf.readUInt32BE(pos + 5), payload: buf.subarray(pos + 9, pos + 9 + len) });
    pos += 9 + len;
  }
  return out;
}

const PREFACE = CLIENT_PREFACE;

describe('request header rewriting', () => {
  it('accepts host:port and rejects socket paths as nghttp2 does', () => {
    expect(isValidAuthority('localhost:10350')).toBe(true);
    expect(isValidAuthority('[::1]:80')).toBe(true);
    expect(isValidAuthority('/run/x.sock')).toBe(false);
  });

  it('replaces a socket-path authority by one of the same length, also when later requests index it, whatever the chunking', () => {
    // Request 1: literal with incremental indexing, static name 1, Huffman value (as Go sends it).
    const path = huffmanEncode('/run/isulats/isulats.sock');
    const first = Buffer.concat([Buffer.from([0x83, 0x86, 0x41, 0x80 | path.length]), path, Buffer.from([0x44, 0x05]), Buffer.from('/a/b1', 'latin1')]);
    // Request 2: the authority by dynamic index 62+1 (":path /a/b1" was added after it, so it is 63).
    const second = Buffer.from([0x83, 0x86, 0xbf, 0x84]);
    const data = frame(0x0, 0x1, 1, Buffer.from('hello'));
    const settings = frame(0x4, 0, 0, Buffer.alloc(0));
    const input = Buffer.concat([PREFACE, settings, headersFrame(1, first), data, headersFrame(3, second, 0x5)]);
    for (const step of [input.length, 1, 7]) {
      const r = new RequestHeaderRewriter();
      const parts: Buffer[] = [];
      for (let i = 0; i < input.length; i += step) parts.push(...r.push(input.subarray(i, i + step)));
      const out = Buffer.concat(parts);
      expect(out.subarray(0, 24)).toEqual(PREFACE);
      const fs = frames(out.subarray(24));
      expect(fs.map((f) => f.type)).toEqual([0x4, 0x1, 0x0, 0x1]);
      const d = new HpackDecoder();
      expect(d.decode(fs[1].payload)).toContainEqual({ name: ':authority', value: '_run_isulats_isulats.sock' });
      expect(fs[2].payload.toString()).toBe('hello');
      const h2 = d.decode(fs[3].payload);
      expect(h2).toContainEqual({ name: ':authority', value: '_run_isulats_isulats.sock' });
      expect(h2).toContainEqual({ name: ':path', value: '/' });
      expect(fs[3].flags).toBe(0x5);
      // The second block only indexes the entry the first one made valid: its bytes pass unchanged.
      expect(fs[3].payload).toEqual(second);
      expect(r.rewritten).toBe(1);
    }
  });

  it('joins CONTINUATION frames and drops padding and keeps priority', () => {
    const block = encodeHeaderBlock([{ name: ':authority', value: '/x.sock' }, { name: 'x', value: 'y' }]);
    const a = block.subarray(0, 4);
    const b = block.subarray(4);
    const payload = Buffer.concat([Buffer.from([2]), Buffer.from([0, 0, 0, 0, 16]), a, Buffer.alloc(2)]);
    const input = Buffer.concat([PREFACE, frame(0x1, 0x8 | 0x20 | 0x1, 5, payload), frame(0x9, 0x4, 5, b)]);
    const fs = frames(Buffer.concat(new RequestHeaderRewriter().push(input)).subarray(24));
    expect(fs).toHaveLength(1);
    expect(fs[0].flags).toBe(0x1 | 0x4 | 0x20);
    expect(fs[0].payload.subarray(0, 5)).toEqual(Buffer.from([0, 0, 0, 0, 16]));
    expect(new HpackDecoder().decode(fs[0].payload.subarray(5))).toEqual([{ name: ':authority', value: '_x.sock' }, { name: 'x', value: 'y' }]);
  });

  it('splits a large re-encoded block into 16 KiB frames', () => {
    const block = encodeHeaderBlock([{ name: 'x-big', value: 'z'.repeat(40_000) }]);
    const input = Buffer.concat([PREFACE, frame(0x1, 0x0, 1, block.subarray(0, 16_000)), frame(0x9, 0x0, 1, block.subarray(16_000, 32_000)), frame(0x9, 0x4, 1, block.subarray(32_000))]);
    const fs = frames(Buffer.concat(new RequestHeaderRewriter().push(input)).subarray(24));
    expect(fs.map((f) => [f.type, f.flags])).toEqual([[0x1, 0], [0x9, 0], [0x9, 0x4]]);
    expect(fs.every((f) => f.payload.length <= 16384)).toBe(true);
    expect(new HpackDecoder().decode(Buffer.concat(fs.map((f) => f.payload)))[0].value).toHaveLength(40_000);
  });

  it('treats a frame inside a header block as a protocol error', () => {
    const input = Buffer.concat([PREFACE, frame(0x1, 0x0, 1, Buffer.from([0x82])), frame(0x0, 0, 1, Buffer.from('x'))]);
    expect(() => new RequestHeaderRewriter().push(input)).toThrow(/interleaved/);
  });
});

/**
 * An HPACK encoder as grpc-go's (golang.org/x/net/http2/hpack): every field indexed, Huffman-coded
 * strings, a 4 KiB table evicting its oldest entries. Only the static entries gRPC requests use.
 */
class GoLikeEncoder {
  private table: Array<[string, string]> = [];
  private size = 0;
  private static readonly STATIC: Record<string, number> = { ':authority': 1, ':method': 2, ':path': 4, ':scheme': 6, 'content-type': 31, 'user-agent': 58 };
  private static readonly STATIC_EXACT: Record<string, number> = { ':method POST': 3, ':scheme http': 6 };

  encode(fields: Array<[string, string]>): Buffer {
    const out: number[] = [];
    const int = (value: number, bits: number, first: number) => {
      const max = (1 << bits) - 1;
      if (value < max) return out.push(first | value);
      out.push(first | max);
      value -= max;
      while (value >= 0x80) {
        out.push((value & 0x7f) | 0x80);
        value >>>= 7;
      }
      out.push(value);
    };
    const str = (s: string) => {
      const h = huffmanEncode(s);
      int(h.length, 7, 0x80);
      out.push(...h);
    };
    for (const [name, value] of fields) {
      const exact = GoLikeEncoder.STATIC_EXACT[`${name} ${value}`] ?? this.find((e) => e[0] === name && e[1] === value);
      if (exact) {
        int(exact, 7, 0x80);
        continue;
      }
      const nameIndex = this.find((e) => e[0] === name) ?? GoLikeEncoder.STATIC[name] ?? 0;
      int(nameIndex, 6, 0x40);
      if (nameIndex === 0) str(name);
      str(value);
      this.table.unshift([name, value]);
      this.size += name.length + value.length + 32;
      while (this.size > 4096) {
        const [n, v] = this.table.pop()!;
        this.size -= n.length + v.length + 32;
      }
    }
    return Buffer.from(out);
  }

  private find(match: (e: [string, string]) => boolean): number | undefined {
    const i = this.table.findIndex(match);
    return i < 0 ? undefined : 62 + i;
  }
}

describe('request header rewriting over a long connection', () => {
  it('keeps both HPACK tables in step through evictions: every request reaches the server with a valid authority', () => {
    const socket = '/tmp/ist-d-Xq3Lp9/d.sock';
    const enc = new GoLikeEncoder();
    const r = new RequestHeaderRewriter();
    const server = new HpackDecoder(4096);
    const rpcs = ['Version', 'ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus'];
    const input: Buffer[] = [PREFACE, frame(0x4, 0, 0, Buffer.alloc(0))];
    const N = 400;
    for (let i = 0; i < N; i++) {
      const block = enc.encode([
        [':method', 'POST'], [':scheme', 'http'], [':path', `/runtime.v1.RuntimeService/${rpcs[i % rpcs.length]}`],
        [':authority', socket], ['content-type', 'application/grpc'], ['user-agent', 'grpc-go/1.59.0'], ['te', 'trailers'],
        // A deadline per call, as kubelet sets: a new value each time, churning the table.
        ['grpc-timeout', `${1_999_000 + i * 7}u`],
      ]);
      input.push(headersFrame(1 + 2 * i, block), frame(0x0, 0x1, 1 + 2 * i, Buffer.from([0, 0, 0, 0, 0])));
    }
    const out = Buffer.concat(input.flatMap((chunk) => r.push(chunk)));
    const headerFrames = frames(out.subarray(24)).filter((f) => f.type === 0x1);
    expect(headerFrames).toHaveLength(N);
    headerFrames.forEach((f, i) => {
      const fields = server.decode(f.payload);
      expect(fields).toContainEqual({ name: ':authority', value: '_tmp_ist-d-Xq3Lp9_d.sock' });
      expect(fields).toContainEqual({ name: ':path', value: `/runtime.v1.RuntimeService/${rpcs[i % rpcs.length]}` });
      expect(fields).toContainEqual({ name: 'grpc-timeout', value: `${1_999_000 + i * 7}u` });
    });
    // The client evicted the authority entry and sent it as a literal again, more than once.
    expect(r.rewritten).toBeGreaterThan(2);
    expect(r.rewritten).toBeLessThan(N / 10);
  });

  it('passes a block whose authority is valid byte for byte, Huffman coding kept', () => {
    const block = new GoLikeEncoder().encode([[':method', 'POST'], [':path', '/runtime.v1.RuntimeService/Version'], [':authority', 'localhost'], ['grpc-timeout', '1999876u']]);
    const out = Buffer.concat(new RequestHeaderRewriter().push(Buffer.concat([PREFACE, headersFrame(1, block)])));
    expect(frames(out.subarray(24))[0]!.payload).toEqual(block);
  });
});
