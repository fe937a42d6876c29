// The part of a protobufjs JSON descriptor that some messages need: the types
// themselves and, transitively, every message and enum their fields name.
// A CLI call sends and receives a handful of messages out of ~370, and
// building protobufjs types costs time per type, so it builds only these.
import type { INamespace } from 'protobufjs';

type Json = Record<string, any>;

const SCALARS = new Set([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

function nodeAt(root: Json, path: string[]): Json | undefined {
  let node: Json | undefined = root;
  for (const part of path) node = node?.nested?.[part];
  return node;
}

/**
 * Resolves a type reference as protobuf scoping does: from the innermost
 * enclosing namespace outwards. Returns the absolute path of the type.
 */
export function resolveTypePath(root: Json, scope: string[], ref: string): string[] | undefined {
  const parts = ref.replace(/^\./, '').split('.');
  if (ref.startsWith('.')) return nodeAt(root, parts) ? parts : undefined;
  for (let i = scope.length; i >= 0; i--) {
    const candidate = [...scope.slice(0, i), ...parts];
    if (nodeAt(root, candidate)) return candidate;
  }
  return undefined;
}

/** A descriptor holding only `typeNames` (fully qualified) and what they reference. */
export function descriptorSubset(root: INamespace, typeNames: string[]): INamespace {
  const src = root as Json;
  const out: Json = {};
  const seen = new Set<string>();
  const visit = (path: string[]) => {
    const key = path.join('.');
    if (seen.has(key)) return;
    seen.add(key);
    const node = nodeAt(src, path);
    if (!node) throw new Error(`descriptor has no type ${key}`);
    // Copy the enclosing namespaces (without their other members), then the type whole.
    let dst = out;
    for (const part of path.slice(0, -1)) {
      dst.nested ??= {};
      const srcNs = nodeAt(src, path.slice(0, path.indexOf(part) + 1)) ?? {};
      dst.nested[part] ??= srcNs.fields ? { fields: srcNs.fields, ...(srcNs.oneofs ? { oneofs: srcNs.oneofs } : {}) } : {};
      dst = dst.nested[part];
    }
    dst.nested ??= {};
    dst.nested[path[path.length - 1]] = node;
    // Walk the fields of the type and of its nested types.
    const walk = (typePath: string[], typeNode: Json) => {
      for (const field of Object.values<Json>(typeNode.fields ?? {})) {
        if (SCALARS.has(field.type)) continue;
        const target = resolveTypePath(src, typePath, field.type);
        if (!target) throw new Error(`unresolvable type ${field.type} in ${typePath.join('.')}`);
        visit(target);
      }
      for (const [name, child] of Object.entries<Json>(typeNode.nested ?? {})) walk([...typePath, name], child);
    };
    walk(path, node);
    // A nested type's parent must be complete too (its fields may be set up by protobufjs).
    if (path.length > 1 && nodeAt(src, path.slice(0, -1))?.fields) visit(path.slice(0, -1));
  };
  for (const name of typeNames) visit(name.replace(/^\./, '').split('.'));
  return out as INamespace;
}
