// The shape of a protobufjs JSON descriptor's types (src/api/descriptors/*.json),
// and the lookup of a type by its name: plain data, usable without protobufjs
// (the config-file normaliser, the structured outputs, the CLI's fast path).

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

/** The type named `name` (dotted for a nested one) within `ns`. */
export function lookupType(ns: Record<string, TypeDef>, name: string): TypeDef | undefined {
  let scope: Record<string, TypeDef> | undefined = ns;
  let found: TypeDef | undefined;
  for (const part of name.split('.')) {
    found = scope?.[part];
    scope = found?.nested;
  }
  return found;
}
