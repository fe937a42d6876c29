// Pod and container config files for runp/create, as crictl accepts them:
// JSON or YAML, keys in snake_case (crictl's Go structs) or lowerCamelCase
// (protobuf JSON). Keys are normalised to the lowerCamelCase field names of the
// runtime.v1 descriptor; map fields (labels, annotations, sysctls, ...) keep
// their keys as written. Unknown keys are dropped, as Go's JSON decoder does.
import { readFileSync } from 'node:fs';
import type { INamespace } from 'protobufjs';
import type * as cri from '../api/cri.js';
import { invalidArgument } from '../runtime/errors.js';
import { loadYaml } from '../util/cjs.js';
import { lookupType, type FieldDef, type TypeDef } from '../api/proto-types.js';

export type { FieldDef, TypeDef } from '../api/proto-types.js';
export { lookupType } from '../api/proto-types.js';

export type ConfigKind = 'pod' | 'container';

const ROOT_TYPES: Record<ConfigKind, string> = { pod: 'PodSandboxConfig', container: 'ContainerConfig' };

export function snakeToCamel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Parses text as YAML (a superset of JSON); the result must be a mapping. */
export async function parseConfigText(text: string): Promise<Record<string, unknown>> {
  const { parse } = await loadYaml();
  let doc: unknown;
  try {
    doc = parse(text, { intAsBigInt: true });
  } catch (err) {
    throw new Error((err as Error).message.split('\n')[0]);
  }
  if (doc === null || doc === undefined) throw new Error('the file is empty');
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error('expected a mapping of config fields at the top level');
  return doc as Record<string, unknown>;
}

/** Normalises `doc` against message `typeName` of `ns` (the runtime.v1 namespace). */
export function normalizeMessage(ns: Record<string, TypeDef>, typeName: string, doc: unknown, path = ''): unknown {
  const type = lookupType(ns, typeName);
  if (!type?.fields || doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const byName = new Map<string, [string, FieldDef]>();
  for (const [name, def] of Object.entries(type.fields)) {
    byName.set(name, [name, def]);
    byName.set(name.toLowerCase(), [name, def]);
  }
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of Object.entries(doc as Record<string, unknown>)) {
    const camel = snakeToCamel(rawKey);
    const hit = byName.get(camel) ?? byName.get(camel.toLowerCase());
    if (!hit) continue;
    const [name, def] = hit;
    out[name] = normalizeField(ns, def, value, path ? `${path}.${name}` : name);
  }
  return out;
}

function normalizeField(ns: Record<string, TypeDef>, def: FieldDef, value: unknown, path: string): unknown {
  if (value === null || value === undefined) return undefined;
  const target = lookupType(ns, def.type);
  const isMessage = Boolean(target?.fields);
  if (def.keyType) {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(`${path}: expected a mapping`);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      out[k] = isMessage ? normalizeMessage(ns, def.type, v, `${path}.${k}`) : typedScalar(target, def.type, v, `${path}.${k}`);
    }
    return out;
  }
  if (def.rule === 'repeated') {
    if (!Array.isArray(value)) throw invalidArgument(`${path}: expected a list`);
    return value.map((v, i) => (isMessage ? normalizeMessage(ns, def.type, v, `${path}[${i}]`) : typedScalar(target, def.type, v, `${path}[${i}]`)));
  }
  if (isMessage) {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(`${path}: expected a mapping`);
    return normalizeMessage(ns, def.type, value, path);
  }
  return typedScalar(target, def.type, value, path);
}

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

function describeValue(v: unknown): string {
  if (typeof v === 'bigint' || typeof v === 'number') return `the number ${v}`;
  if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `the boolean ${v}`;
  return Array.isArray(v) ? 'a list' : 'a mapping';
}

/**
 * A scalar checked against its proto type, as Go's JSON decoder (crictl's) checks it: a number is
 * no string, 99999999999 no int32. 64-bit integers may also be decimal strings (protobuf JSON),
 * enums numbers or value names.
 */
function typedScalar(enumType: TypeDef | undefined, type: string, v: unknown, path: string): unknown {
  const refuse = (want: string) => invalidArgument(`${path}: expected ${want}, got ${describeValue(v)}`);
  if (enumType?.values) {
    if (typeof v === 'string' && v in enumType.values) return v;
    if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) {
      const n = Number(v);
      if (Object.values(enumType.values).includes(n)) return n;
    }
    throw refuse(`one of ${Object.keys(enumType.values).join(', ')} (or its number)`);
  }
  const range = INT_RANGES[type];
  if (range) {
    let n: bigint;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && type.endsWith('64') && /^-?\d+$/.test(v)) n = BigInt(v);
    else throw refuse(`an integer (${type})`);
    if (n < range[0] || n > range[1]) throw invalidArgument(`${path}: ${n} is out of range for ${type}`);
    return scalar(n);
  }
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw refuse('a string');
      return v;
    case 'bytes':
      // crictl's Go structs hold these as strings (env values): their UTF-8 bytes, never base64.
      if (typeof v !== 'string') throw refuse('a string');
      return Buffer.from(v, 'utf8');
    case 'bool':
      if (typeof v !== 'boolean') throw refuse('true or false');
      return v;
    case 'double':
    case 'float':
      if (typeof v === 'bigint') return Number(v);
      if (typeof v !== 'number') throw refuse('a number');
      return v;
    default:
      return scalar(v);
  }
}

/** Integers are parsed as bigints so int64 values beyond 2^53 stay exact (as strings); the rest become numbers. */
function scalar(v: unknown): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  return v;
}

/** The runtime.v1 message definitions (precompiled descriptor, field declaration order). */
export async function runtimeV1Namespace(): Promise<Record<string, TypeDef>> {
  const { readDescriptor } = await import('../api/proto.js');
  const root = readDescriptor('cri-v1') as INamespace & { nested: any };
  return root.nested.runtime.nested.v1.nested as Record<string, TypeDef>;
}

/** Reads and normalises a config file; every failure is one line: "load <kind> config file: ...". */
export async function loadConfigFile(path: string, kind: 'pod'): Promise<cri.PodSandboxConfigIn>;
export async function loadConfigFile(path: string, kind: 'container'): Promise<cri.ContainerConfigIn>;
export async function loadConfigFile(path: string, kind: ConfigKind): Promise<unknown> {
  const prefix = `load ${kind} config file`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw invalidArgument(`${prefix}: config at ${path} not found`);
    throw invalidArgument(`${prefix}: ${path}: ${(err as Error).message}`);
  }
  try {
    const doc = await parseConfigText(text);
    return normalizeMessage(await runtimeV1Namespace(), ROOT_TYPES[kind], doc);
  } catch (err) {
    throw invalidArgument(`${prefix}: ${path}: ${(err as Error).message}`);
  }
}

