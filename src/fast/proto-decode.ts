// A protobuf message decoded by its descriptor types (src/api/proto-types.ts)
// into exactly what protobufjs's toObject gives with the full CLI's options
// (src/api/proto.ts CONVERSION_OPTIONS: every field present, int64 as decimal
// strings, enums as names, bytes as Buffers), without protobufjs: the fast
// path reads the status messages with it (a few kB of types, no codegen).
// Checked against protobufjs on the same bytes by test/unit/fast-path.test.ts.
import { lookupType, type FieldDef, type TypeDef } from '../api/proto-types.js';

type Ns = Record<string, TypeDef>;
/** One field's occurrences on the wire: varints as bigint, length-delimited as Buffer, fixed as Buffer too (tagged). */
type Raw = { wire: number; v: bigint | Buffer };

const VARINT_SCALARS = new Set(['int32', 'uint32', 'sint32', 'int64', 'uint64', 'sint64', 'bool']);
const FIXED64 = new Set(['fixed64', 'sfixed64', 'double']);
const FIXED32 = new Set(['fixed32', 'sfixed32', 'float']);
const LONGS = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

class Malformed extends Error {}

/** The message `typeName` of `ns` in `buf`, as protobufjs's toObject; undefined if malformed or beyond what this reads (groups, oneofs). */
export function decodeMessage(ns: Ns, typeName: string, buf: Buffer): Record<string, unknown> | undefined {
  try {
    return decodeType(ns, typeName, buf, 0);
  } catch (err) {
    if (err instanceof Malformed) return undefined;
    throw err;
  }
}

function readRaw(buf: Buffer): Map<number, Raw[]> {
  const out = new Map<number, Raw[]>();
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (i >= buf.length || shift > 63n) throw new Malformed();
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  const take = (n: number): Buffer => {
    if (n < 0 || i + n > buf.length) throw new Malformed();
    const s = buf.subarray(i, i + n);
    i += n;
    return s;
  };
  while (i < buf.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let v: bigint | Buffer;
    if (wire === 0) v = varint();
    else if (wire === 2) v = take(Number(varint()));
    else if (wire === 1) v = take(8);
    else if (wire === 5) v = take(4);
    else throw new Malformed(); // groups: none in the CRI
    const list = out.get(field);
    if (list) list.push({ wire, v });
    else out.set(field, [{ wire, v }]);
  }
  return out;
}

/** protobufjs's Enum.valuesById: for ids given twice, the later name. */
function enumName(e: TypeDef, id: number): string | number {
  let name: string | number = id;
  for (const [k, v] of Object.entries(e.values!)) if (v === id) name = k;
  return name;
}

function decodeType(ns: Ns, typeName: string, buf: Buffer, depth: number): Record<string, unknown> {
  const type = lookupType(ns, typeName);
  if (!type?.fields || depth > 100 || (type as { oneofs?: unknown }).oneofs) throw new Malformed();
  const raw = readRaw(buf);
  const fields = Object.entries(type.fields).sort((a, b) => a[1].id - b[1].id);
  const d: Record<string, unknown> = {};
  // Defaults in toObject's order: repeated fields, then maps, then the rest.
  for (const [name, f] of fields) if (f.rule === 'repeated') d[name] = [];
  for (const [name, f] of fields) if (f.keyType) d[name] = {};
  for (const [name, f] of fields) if (f.rule !== 'repeated' && !f.keyType) d[name] = defaultValue(ns, f);
  for (const [name, f] of fields) {
    const seen = raw.get(f.id);
    if (!seen) continue;
    if (f.keyType) {
      const m: Record<string, unknown> = {};
      for (const entry of seen) {
        if (!Buffer.isBuffer(entry.v)) throw new Malformed();
        const kv = readRaw(entry.v);
        const k = kv.get(1)?.at(-1);
        const v = kv.get(2)?.at(-1);
        const key = k ? scalar(ns, { type: f.keyType, id: 1 }, k, depth) : defaultValue(ns, { type: f.keyType, id: 1 });
        m[String(key)] = v ? scalar(ns, f, v, depth) : defaultValue(ns, f);
      }
      if (Object.keys(m).length) d[name] = m;
    } else if (f.rule === 'repeated') {
      const list: unknown[] = [];
      for (const r of seen) {
        // Packed scalars: many values in one length-delimited field.
        if (r.wire === 2 && Buffer.isBuffer(r.v) && (VARINT_SCALARS.has(f.type) || FIXED64.has(f.type) || FIXED32.has(f.type) || lookupType(ns, f.type)?.values)) {
          list.push(...unpack(ns, f, r.v, depth));
        } else {
          list.push(scalar(ns, f, r, depth));
        }
      }
      if (list.length) d[name] = list;
    } else {
      d[name] = scalar(ns, f, seen.at(-1)!, depth);
    }
  }
  return d;
}

function unpack(ns: Ns, f: FieldDef, buf: Buffer, depth: number): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  while (i < buf.length) {
    if (FIXED64.has(f.type) || FIXED32.has(f.type)) {
      const n = FIXED64.has(f.type) ? 8 : 4;
      if (i + n > buf.length) throw new Malformed();
      out.push(scalar(ns, f, { wire: n === 8 ? 1 : 5, v: buf.subarray(i, i + n) }, depth));
      i += n;
      continue;
    }
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (i >= buf.length || shift > 63n) throw new Malformed();
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) break;
    }
    out.push(scalar(ns, f, { wire: 0, v }, depth));
  }
  return out;
}

function defaultValue(ns: Ns, f: FieldDef): unknown {
  const t = lookupType(ns, f.type);
  if (t?.values) return enumName(t, Object.values(t.values)[0]);
  if (t?.fields) return null;
  if (LONGS.has(f.type)) return '0';
  if (f.type === 'string') return '';
  if (f.type === 'bool') return false;
  if (f.type === 'bytes') return Buffer.alloc(0);
  return 0;
}

function scalar(ns: Ns, f: FieldDef, r: Raw, depth: number): unknown {
  const { v } = r;
  const t = lookupType(ns, f.type);
  if (t?.fields) {
    if (!Buffer.isBuffer(v) || r.wire !== 2) throw new Malformed();
    return decodeType(ns, f.type, v, depth + 1);
  }
  if (typeof v === 'bigint') {
    if (t?.values) return enumName(t, Number(BigInt.asIntN(32, v)));
    switch (f.type) {
      case 'int32': return Number(BigInt.asIntN(32, v));
      case 'uint32': return Number(BigInt.asUintN(32, v));
      case 'sint32': { const u = BigInt.asUintN(32, v); return Number((u >> 1n) ^ -(u & 1n)); }
      case 'int64': return BigInt.asIntN(64, v).toString();
      case 'uint64': return BigInt.asUintN(64, v).toString();
      case 'sint64': { const u = BigInt.asUintN(64, v); return ((u >> 1n) ^ -(u & 1n)).toString(); }
      case 'bool': return v !== 0n;
      default: throw new Malformed();
    }
  }
  if (r.wire === 1) {
    if (f.type === 'double') return v.readDoubleLE(0);
    if (f.type === 'fixed64') return v.readBigUInt64LE(0).toString();
    if (f.type === 'sfixed64') return v.readBigInt64LE(0).toString();
    throw new Malformed();
  }
  if (r.wire === 5) {
    if (f.type === 'float') return v.readFloatLE(0);
    if (f.type === 'fixed32') return v.readUInt32LE(0);
    if (f.type === 'sfixed32') return v.readInt32LE(0);
    throw new Malformed();
  }
  if (f.type === 'string') return v.toString('utf8');
  if (f.type === 'bytes') return Buffer.from(v);
  throw new Malformed();
}
