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

export interface FieldDef {
  type: string;
  id: number;
  rule?: string;
  keyType?: string;
}

export interface TypeDef {
  fields?: Record<string, FieldDef>;
  values?: Record<string, number>;
  nested?: Record<string, TypeDef>;
}

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
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = isMessage ? normalizeMessage(ns, def.type, v, `${path}.${k}`) : scalar(v, def.type, `${path}.${k}`);
    return out;
  }
  if (def.rule === 'repeated') {
    if (!Array.isArray(value)) throw invalidArgument(`${path}: expected a list`);
    return value.map((v, i) => (isMessage ? normalizeMessage(ns, def.type, v, `${path}[${i}]`) : scalar(v, def.type, `${path}[${i}]`)));
  }
  if (isMessage) {
    if (typeof value !== 'object' || Array.isArray(value)) throw invalidArgument(`${path}: expected a mapping`);
    return normalizeMessage(ns, def.type, value, path);
  }
  return scalar(value, def.type, path);
}

/** Range of each protobuf integer type, as Go's JSON decoder (crictl) enforces it. */
const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(1n << 31n), (1n << 31n) - 1n],
  sint32: [-(1n << 31n), (1n << 31n) - 1n],
  sfixed32: [-(1n << 31n), (1n << 31n) - 1n],
  uint32: [0n, (1n << 32n) - 1n],
  fixed32: [0n, (1n << 32n) - 1n],
  int64: [-(1n << 63n), (1n << 63n) - 1n],
  sint64: [-(1n << 63n), (1n << 63n) - 1n],
  sfixed64: [-(1n << 63n), (1n << 63n) - 1n],
  uint64: [0n, (1n << 64n) - 1n],
  fixed64: [0n, (1n << 64n) - 1n],
};

/**
 * Integers are parsed as bigints so int64 values beyond 2^53 stay exact (as
 * strings); the rest become numbers. A value outside its field's integer type
 * is refused here: protobuf encoding would wrap it (2^64 shares would arrive as 0).
 */
function scalar(v: unknown, type?: string, path = ''): unknown {
  const range = type ? INT_RANGES[type] : undefined;
  if (range && v !== null && v !== undefined) {
    let n: bigint;
    if (typeof v === 'bigint') n = v;
    else if (typeof v === 'number' && Number.isInteger(v)) n = BigInt(v);
    else if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) n = BigInt(v.trim());
    else throw invalidArgument(`${path}: expected an integer (${type}), got ${JSON.stringify(typeof v === 'number' ? v : String(v))}`);
    if (n < range[0] || n > range[1]) throw invalidArgument(`${path}: ${n} is out of range for ${type} (${range[0]}..${range[1]})`);
    v = n;
  }
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString();
  return v;
}

export function lookupType(ns: Record<string, TypeDef>, name: string): TypeDef | undefined {
  let scope: Record<string, TypeDef> | undefined = ns;
  let found: TypeDef | undefined;
  for (const part of name.split('.')) {
    found = scope?.[part];
    scope = found?.nested;
  }
  return found;
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

