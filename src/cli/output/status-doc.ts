// The documents `inspect`, `inspectp`, `inspecti` and `info` print, as crictl 1.34
// prints them, built from decoded messages and the runtime.v1 descriptor's types.
// Pure and without dependencies beyond the time formats: the full CLI
// (cli/status-output.ts) and the fast path (src/fast/) both render through it.
import type * as cri from '../../api/cri.js';
import { lookupType, type TypeDef } from '../../api/proto-types.js';
import { GO_ZERO_TIME_RFC3339, rfc3339Nano } from '../filters.js';
import { toPlain } from './to-plain.js';

/**
 * Orders keys as protobuf JSON does (field declaration order), recursively:
 * the decoder puts map and repeated fields first. Keys the message does not
 * declare (the decoder's virtual oneof names) are dropped.
 */
export function orderBy(ns: Record<string, TypeDef>, typeName: string, value: unknown): unknown {
  const type = lookupType(ns, typeName);
  if (!type?.fields || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(type.fields)) {
    if (!(name in obj)) continue;
    const v = obj[name];
    const isMessage = Boolean(lookupType(ns, def.type)?.fields);
    // Upstream's Signal values are unprefixed (RUNTIME_DEFAULT, SIGTERM); our proto scopes them as SIGNAL_*.
    if (def.type === 'Signal' && typeof v === 'string') out[name] = v.replace(/^SIGNAL_/, '');
    else if (!isMessage || v === null || v === undefined) out[name] = v;
    else if (def.keyType) out[name] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, orderBy(ns, def.type, x)]));
    else if (Array.isArray(v)) out[name] = v.map((x) => orderBy(ns, def.type, x));
    else out[name] = orderBy(ns, def.type, v);
  }
  return out;
}

export function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) out[k] = sortKeysDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** crictl's pod status JSON: createdAt as RFC 3339 in the local zone. */
export function podStatusDocIn(ns: Record<string, TypeDef>, status: cri.PodSandboxStatus): Record<string, unknown> {
  const doc = toPlain(orderBy(ns, 'PodSandboxStatus', status)) as Record<string, unknown>;
  doc.createdAt = rfc3339Nano(status.createdAt || '0');
  return doc;
}

/** crictl's container status JSON: createdAt always, startedAt once started, finishedAt once exited. */
export function containerStatusDocIn(ns: Record<string, TypeDef>, status: cri.ContainerStatus): Record<string, unknown> {
  const doc = toPlain(orderBy(ns, 'ContainerStatus', status)) as Record<string, unknown>;
  doc.createdAt = rfc3339Nano(status.createdAt || '0');
  const started = status.state !== 'CONTAINER_CREATED';
  const finished = status.state === 'CONTAINER_EXITED' || (status.state === 'CONTAINER_UNKNOWN' && BigInt(status.finishedAt || '0') > 0n);
  doc.startedAt = started ? rfc3339Nano(status.startedAt || '0') : GO_ZERO_TIME_RFC3339;
  doc.finishedAt = finished ? rfc3339Nano(status.finishedAt || '0') : GO_ZERO_TIME_RFC3339;
  return doc;
}

/**
 * crictl 1.34's document for one status: {status, each info key}, every level's keys sorted; an
 * info value starting with "{" is parsed as JSON, any other stays a string without its quotes.
 */
export function statusInfoDoc(status: Record<string, unknown>, info: Record<string, string> | undefined, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const doc: Record<string, unknown> = { status, ...extra };
  for (const [k, raw] of Object.entries(info ?? {})) {
    let value: unknown = raw.replace(/^"+|"+$/g, '');
    if (raw.startsWith('{')) {
      try {
        value = JSON.parse(raw);
      } catch {
        // crictl refuses such a document; the text itself is more use to whoever reads it.
      }
    }
    doc[k] = value;
  }
  return sortKeysDeep(toPlain(doc)) as Record<string, unknown>;
}

/** Several statuses are one JSON array in crictl 1.34; one is the document alone. */
export function statusDocs(docs: Record<string, unknown>[]): unknown {
  return docs.length === 1 ? docs[0] : docs;
}

/**
 * A status document as crictl 1.34 prints it in JSON: its JSON went through Go's
 * json.Marshal, which escapes <, > and & in strings (only strings can hold them in JSON text).
 */
export function statusDocJson(doc: unknown): string {
  return `${JSON.stringify(toPlain(doc), null, 2).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`;
}

/** Go's fmt %v of a map[string]string: "map[k1:v1 k2:v2]" with sorted keys. */
export function goMapString(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return `map[${keys.map((k) => `${k}:${m![k]}`).join(' ')}]`;
}
