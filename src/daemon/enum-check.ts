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
  const index: Index = { messages: new Map(), enums: new Map() };
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
  const walk = (type: string, value: unknown, path: string): string | undefined => {
    const fields = idx.messages.get(type);
    if (!fields || value === null || typeof value !== 'object') return undefined;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const f = fields.get(key);
      if (!f || f.kind === 'scalar' || v === null || v === undefined) continue;
      // Repeated fields are arrays, maps are objects; a message is an object too, so only
      // descend into plain objects as maps when the field is not a message.
      const items: Array<[string, unknown]> = Array.isArray(v)
        ? v.map((x, i) => [`${path}${key}[${i}]`, x])
        : f.kind === 'enum' && typeof v === 'object'
          ? Object.entries(v as Record<string, unknown>).map(([k, x]) => [`${path}${key}[${k}]`, x])
          : [[`${path}${key}`, v]];
      for (const [p, x] of items) {
        if (f.kind === 'enum') {
          if (typeof x === 'number' && !idx.enums.get(f.type)?.has(x)) return `${p} = ${x}`;
        } else {
          const found = walk(f.type, x, `${p}.`);
          if (found) return found;
        }
      }
    }
    return undefined;
  };
  return walk(messageType.replace(/^\.?runtime\.(v1alpha2|v1)\./, ''), obj, '');
}
