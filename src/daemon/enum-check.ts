// Unknown enum values in requests. proto3 decoding keeps a number it has no
// name for (the loader gives names, so such a value arrives as a bare
// number); passing it on would let the engine guess, and converting v1alpha2
// would silently turn it into the default (a ListContainers state filter of 99
// would become CONTAINER_CREATED). The daemon answers InvalidArgument instead.
import { readDescriptor } from '../api/proto.js';

interface FieldInfo {
  type: string;
  kind: 'enum' | 'message' | 'scalar';
}

interface Index {
  messages: Map<string, Map<string, FieldInfo>>;
  enums: Map<string, Set<number>>;
  /** Message types with an enum field somewhere below them; the walk skips the others. */
  withEnums: Set<string>;
}

interface JsonNode {
  nested?: Record<string, JsonNode>;
  fields?: Record<string, { type: string }>;
  values?: Record<string, number>;
  methods?: unknown;
}

const PACKAGES = { 'cri-v1': ['runtime', 'v1'], 'cri-v1alpha2': ['runtime', 'v1alpha2'] } as const;
type CriDescriptor = keyof typeof PACKAGES;
const indexes = new Map<CriDescriptor, Index>();

function buildIndex(name: CriDescriptor): Index {
  let pkg = readDescriptor(name) as JsonNode;
  for (const part of PACKAGES[name]) pkg = pkg.nested![part];
  const nodes = new Map<string, JsonNode>();
  const collect = (node: JsonNode, prefix: string) => {
    for (const [key, child] of Object.entries(node.nested ?? {})) {
      if (child.methods) continue;
      nodes.set(prefix + key, child);
      collect(child, `${prefix}${key}.`);
    }
  };
  collect(pkg, '');
  // A field type resolves from the innermost scope outwards, as protobuf names do.
  const resolve = (type: string, scope: string): string => {
    const parts = scope.split('.');
    for (let i = parts.length; i >= 0; i--) {
      const candidate = [...parts.slice(0, i), type].join('.');
      if (nodes.has(candidate)) return candidate;
    }
    return type;
  };
  const index: Index = { messages: new Map(), enums: new Map(), withEnums: new Set() };
  for (const [rel, node] of nodes) {
    if (node.values) index.enums.set(rel, new Set(Object.values(node.values)));
    else if (node.fields) {
      const fields = new Map<string, FieldInfo>();
      for (const [fname, f] of Object.entries(node.fields)) {
        const type = resolve(f.type, rel);
        const target = nodes.get(type);
        fields.set(fname, { type, kind: !target ? 'scalar' : target.values ? 'enum' : 'message' });
      }
      index.messages.set(rel, fields);
    }
  }
  // To a fixed point: a message has enums below it when a field is an enum or such a message.
  for (let changed = true; changed;) {
    changed = false;
    for (const [type, fields] of index.messages) {
      if (index.withEnums.has(type)) continue;
      if ([...fields.values()].some((f) => f.kind === 'enum' || (f.kind === 'message' && index.withEnums.has(f.type)))) {
        index.withEnums.add(type);
        changed = true;
      }
    }
  }
  return index;
}

/** The path and value of the first enum field holding a number its enum lacks, or undefined. */
export function findUnknownEnum(descriptor: CriDescriptor, messageType: string, obj: unknown): string | undefined {
  let index = indexes.get(descriptor);
  if (!index) {
    index = buildIndex(descriptor);
    indexes.set(descriptor, index);
  }
  const idx = index;
  // Paths are built only on the way out of a hit: a 100k-entry env costs nothing here (KeyValue has no enum).
  const walk = (type: string, value: unknown): string[] | undefined => {
    const fields = idx.messages.get(type);
    if (!fields || value === null || typeof value !== 'object') return undefined;
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const f = fields.get(key);
      if (!f || f.kind === 'scalar' || v === null || v === undefined) continue;
      if (f.kind === 'message' && !idx.withEnums.has(f.type)) continue;
      const check = (x: unknown): string[] | undefined => {
        if (f.kind === 'enum') return typeof x === 'number' && !idx.enums.get(f.type)?.has(x) ? [` = ${x}`] : undefined;
        const found = walk(f.type, x);
        return found && [...found, '.'];
      };
      // Repeated fields are arrays, maps are objects; a message is an object too, so only
      // descend into plain objects as maps when the field is not a message.
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const found = check(v[i]);
          if (found) return [...found, `${key}[${i}]`];
        }
      } else if (f.kind === 'enum' && typeof v === 'object') {
        const map = v as Record<string, unknown>;
        for (const k of Object.keys(map)) {
          const found = check(map[k]);
          if (found) return [...found, `${key}[${k}]`];
        }
      } else {
        const found = check(v);
        if (found) return [...found, key];
      }
    }
    return undefined;
  };
  const found = walk(messageType.replace(/^\.?runtime\.(v1alpha2|v1)\./, ''), obj);
  return found?.reverse().join('');
}
