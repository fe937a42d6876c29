// v1alpha2 <-> v1 at the edge, so everything inside sees only runtime.v1.
// Driven by the two precompiled descriptors, walking fields recursively:
// - a field exists in both when name and number agree; anything else in the
//   source is dropped (v1-only fields and enum values never reach a v1alpha2 peer);
// - KeyValue.value is bytes in v1 and string in v1alpha2 (same wire bytes):
//   any bytes<->string pair converts as UTF-8;
// - going to v1, fields v1alpha2 lacks get v1 defaults, so a fully defaulted
//   v1alpha2 message becomes a fully defaulted v1 message (the `X` form).
// Works on plain objects (camelCase, int64 as strings, enums as names), the
// form grpc-js hands out and takes with the loader options in proto.ts.
import { CRI_PACKAGES, readDescriptor, type DescriptorName } from './proto.js';

type Plain = Record<string, unknown>;

interface FieldInfo {
  name: string;
  id: number;
  /** Package-relative name of a message or enum, or the scalar type. */
  type: string;
  kind: 'message' | 'enum' | 'scalar';
  repeated: boolean;
  map: boolean;
}

interface MessageInfo {
  kind: 'message';
  fields: Map<string, FieldInfo>;
  /** oneof group -> member field names (the virtual field `oneofs: true` adds). */
  oneofs: Map<string, string[]>;
}

interface EnumInfo {
  kind: 'enum';
  values: Map<string, number>;
  names: Map<number, string>;
}

interface Schema {
  types: Map<string, MessageInfo | EnumInfo>;
  /** "Service/Method" of every rpc -> its request and response message names. */
  rpcs: Map<string, RpcTypes>;
}

export interface RpcTypes {
  request: string;
  response: string;
}

interface JsonNode {
  nested?: Record<string, JsonNode>;
  fields?: Record<string, { type: string; id: number; rule?: string; keyType?: string }>;
  oneofs?: Record<string, { oneof: string[] }>;
  values?: Record<string, number>;
  methods?: Record<string, { requestType: string; responseType: string }>;
}

const schemas = new Map<DescriptorName, Schema>();

function packageNode(name: 'cri-v1' | 'cri-v1alpha2'): JsonNode {
  const pkg = CRI_PACKAGES[name === 'cri-v1' ? 'v1' : 'v1alpha2'];
  let node = readDescriptor(name) as JsonNode;
  for (const part of pkg.split('.')) {
    const next = node.nested?.[part];
    if (!next) throw new Error(`descriptor ${name} lacks package ${pkg}`);
    node = next;
  }
  return node;
}

/** Indexes a descriptor: every type by package-relative name, field types resolved by scope. */
function schema(name: 'cri-v1' | 'cri-v1alpha2'): Schema {
  const cached = schemas.get(name);
  if (cached) return cached;
  const pkg = packageNode(name);
  const nodes = new Map<string, JsonNode>();
  const rpcs = new Map<string, RpcTypes>();
  const collect = (node: JsonNode, prefix: string) => {
    for (const [key, child] of Object.entries(node.nested ?? {})) {
      const rel = prefix + key;
      if (child.methods) {
        for (const [m, def] of Object.entries(child.methods)) rpcs.set(`${rel}/${m}`, { request: def.requestType, response: def.responseType });
      }
      else nodes.set(rel, child);
      collect(child, `${rel}.`);
    }
  };
  collect(pkg, '');
  const resolve = (type: string, scope: string): string => {
    const parts = scope.split('.');
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), type].join('.');
      if (nodes.has(candidate)) return candidate;
    }
    return type;
  };
  const types: Schema['types'] = new Map();
  for (const [rel, node] of nodes) {
    if (node.values) {
      const values = new Map(Object.entries(node.values));
      types.set(rel, { kind: 'enum', values, names: new Map([...values].map(([k, v]) => [v, k])) });
    } else if (node.fields) {
      const fields = new Map<string, FieldInfo>();
      for (const [fname, f] of Object.entries(node.fields)) {
        const type = resolve(f.type, rel);
        const target = nodes.get(type);
        fields.set(fname, {
          name: fname,
          id: f.id,
          type,
          kind: !target ? 'scalar' : target.values ? 'enum' : 'message',
          repeated: f.rule === 'repeated',
          map: f.keyType !== undefined,
        });
      }
      const oneofs = new Map(Object.entries(node.oneofs ?? {}).map(([g, o]) => [g, o.oneof]));
      types.set(rel, { kind: 'message', fields, oneofs });
    }
  }
  const built = { types, rpcs };
  schemas.set(name, built);
  return built;
}

function stripPackage(messageType: string): string {
  return messageType.replace(/^\.?runtime\.(v1alpha2|v1)\./, '');
}

function messageInfo(s: Schema, type: string, side: string): MessageInfo {
  const info = s.types.get(type);
  if (!info || info.kind !== 'message') throw new Error(`${side} has no message ${type}`);
  return info;
}

const LONG_TYPES = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

/** The value decoding gives an absent field (see CONVERSION_OPTIONS in proto.ts). */
function defaultFor(s: Schema, f: FieldInfo): unknown {
  if (f.map) return {};
  if (f.repeated) return [];
  if (f.kind === 'message') return null;
  if (f.kind === 'enum') {
    const e = s.types.get(f.type) as EnumInfo;
    return e.names.get(0) ?? 0;
  }
  if (f.type === 'string') return '';
  if (f.type === 'bool') return false;
  if (f.type === 'bytes') return Buffer.alloc(0);
  if (LONG_TYPES.has(f.type)) return '0';
  return 0;
}

/** Bytes as protobufjs input accepts them: Buffer, Uint8Array, number[] or base64 text. */
function bytesOf(v: unknown): Buffer {
  if (typeof v === 'string') return Buffer.from(v, 'base64');
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (Array.isArray(v)) return Buffer.from(v as number[]);
  return Buffer.alloc(0);
}

const DROP = Symbol('drop');

class Converter {
  constructor(
    private readonly src: Schema,
    private readonly dst: Schema,
    private readonly fillDefaults: boolean,
  ) {}

  message(type: string, obj: unknown): unknown {
    if (obj === null || obj === undefined) return obj;
    const from = messageInfo(this.src, type, 'source');
    const to = messageInfo(this.dst, type, 'target');
    const input = obj as Plain;
    const out: Plain = {};
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      const sf = from.fields.get(key);
      if (!sf) {
        // A virtual oneof field names the member that is set.
        if (from.oneofs.has(key) && to.oneofs.get(key)?.includes(value as string)) out[key] = value;
        continue;
      }
      const df = to.fields.get(key);
      if (!df || df.id !== sf.id || df.kind !== sf.kind || df.repeated !== sf.repeated || df.map !== sf.map) continue;
      const converted = this.field(sf, df, value);
      if (converted !== DROP) out[key] = converted;
    }
    if (this.fillDefaults) {
      for (const df of to.fields.values()) {
        if (!(df.name in out) && !from.fields.has(df.name)) out[df.name] = defaultFor(this.dst, df);
      }
    }
    return out;
  }

  private field(sf: FieldInfo, df: FieldInfo, value: unknown): unknown {
    if (sf.map) {
      const out: Plain = {};
      for (const [k, v] of Object.entries((value ?? {}) as Plain)) {
        const c = this.single(sf, df, v);
        if (c !== DROP) out[k] = c;
      }
      return out;
    }
    if (sf.repeated) {
      if (!Array.isArray(value)) return [];
      return value.map((v) => this.single(sf, df, v)).filter((v) => v !== DROP);
    }
    return this.single(sf, df, value);
  }

  private single(sf: FieldInfo, df: FieldInfo, value: unknown): unknown {
    if (sf.kind === 'message') return sf.type === df.type && this.dst.types.has(df.type) ? this.message(sf.type, value) : DROP;
    if (sf.kind === 'enum') return this.enumValue(sf, df, value);
    if (sf.type === df.type) return value;
    if (sf.type === 'bytes' && df.type === 'string') return bytesOf(value).toString('utf8');
    if (sf.type === 'string' && df.type === 'bytes') return Buffer.from(String(value ?? ''), 'utf8');
    return DROP;
  }

  /** Keeps a value only if the target enum knows it (by name, or by number for numeric input). */
  private enumValue(sf: FieldInfo, df: FieldInfo, value: unknown): unknown {
    const from = this.src.types.get(sf.type) as EnumInfo;
    const to = this.dst.types.get(df.type) as EnumInfo | undefined;
    if (!to || to.kind !== 'enum') return DROP;
    const number = typeof value === 'number' ? value : from.values.get(String(value));
    if (number === undefined || !to.names.has(number)) return DROP;
    return typeof value === 'number' ? value : to.names.get(number);
  }
}

let down: Converter | undefined;
let up: Converter | undefined;

/**
 * A runtime.v1 message object as runtime.v1alpha2 expects it: v1-only fields
 * and enum values dropped, KeyValue.value bytes -> UTF-8 string. Throws for a
 * message type v1alpha2 lacks (an rpc the peer cannot serve).
 */
export function toV1alpha2<T = Plain>(messageType: string, obj: unknown): T {
  down ??= new Converter(schema('cri-v1'), schema('cri-v1alpha2'), false);
  return down.message(stripPackage(messageType), obj) as T;
}

/**
 * A runtime.v1alpha2 message object as runtime.v1: KeyValue.value string ->
 * Buffer, fields only v1 has set to their defaults.
 */
export function fromV1alpha2<T = Plain>(messageType: string, obj: unknown): T {
  up ??= new Converter(schema('cri-v1alpha2'), schema('cri-v1'), true);
  return up.message(stripPackage(messageType), obj) as T;
}

function rpcKey(service: string, method: string): string {
  return `${service}/${method.charAt(0).toUpperCase()}${method.slice(1)}`;
}

/** Whether a v1alpha2 peer serves the rpc, e.g. ("RuntimeService", "GetContainerEvents" or "getContainerEvents"). */
export function v1alpha2HasRpc(service: string, method: string): boolean {
  return schema('cri-v1alpha2').rpcs.has(rpcKey(service, method));
}

/**
 * Request and response message names of a runtime.v1 rpc (method in
 * PascalCase or camelCase), the names toV1alpha2/fromV1alpha2 take.
 */
export function rpcMessageTypes(service: string, method: string): RpcTypes | undefined {
  return schema('cri-v1').rpcs.get(rpcKey(service, method));
}

/** Every "Service/Method" that exists only in runtime.v1. */
export function v1OnlyRpcs(): string[] {
  const old = schema('cri-v1alpha2').rpcs;
  return [...schema('cri-v1').rpcs.keys()].filter((r) => !old.has(r)).sort();
}
