// Structured output exactly as crictl prints it for pods/ps/inspect/inspectp:
// JSON is the protobuf JSON (every field, int64 as strings) indented by two
// and followed by one newline; YAML is that JSON run through sigs.k8s.io/yaml
// (keys sorted, sequences not indented, no line folding, YAML 1.1 quoting as
// yaml.v2 does for timestamps and yes/no/on/off) followed by a blank
// line (crictl's Println after YAML that already ends in "\n"); a go-template
// is executed over the JSON document and followed by a newline.
// inspect/inspectp/inspecti/info print crictl 1.34's {"info"..., "status"} document:
// Go maps all the way down, so every level's keys are sorted (a run of several IDs is
// one array of them); info values that are JSON objects are parsed, others are strings.
import type * as cri from '../api/cri.js';
import { toPlain } from './output/format.js';
import { rfc3339Nano, GO_ZERO_TIME_RFC3339 } from './filters.js';
import { invalidArgument } from '../runtime/errors.js';
import { lookupType, runtimeV1Namespace, type TypeDef } from './config-loader.js';
import { loadYaml } from '../util/cjs.js';

/**
 * Orders keys as protobuf JSON does (field declaration order), recursively:
 * the decoder puts map and repeated fields first. Keys the message does not
 * declare (the decoder's virtual oneof names) are dropped.
 */
export async function protoOrdered(typeName: string, value: unknown): Promise<unknown> {
  return orderBy(await runtimeV1Namespace(), typeName, value);
}

function orderBy(ns: Record<string, TypeDef>, typeName: string, value: unknown): unknown {
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

export type StructuredFormat = 'json' | 'yaml' | 'go-template';

export function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) out[k] = sortKeysDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export async function renderCrictlYaml(doc: unknown): Promise<string> {
  const { stringify } = await loadYaml();
  return `${stringify(sortKeysDeep(toPlain(doc)), { version: '1.1', indentSeq: false, lineWidth: 0, minContentWidth: 0 })}\n`;
}

export async function renderCrictl(doc: unknown, format: StructuredFormat, template?: string): Promise<string> {
  if (format === 'json') return `${JSON.stringify(toPlain(doc), null, 2)}\n`;
  return renderStructuredDoc(doc, format, template);
}

/**
 * A status document (statusInfoDoc) as crictl 1.34 prints it: its JSON went through Go's
 * json.Marshal, which escapes <, > and & in strings (only strings can hold them in JSON text).
 */
export async function renderStatusDoc(doc: unknown, format: StructuredFormat, template?: string): Promise<string> {
  if (format === 'json') return `${JSON.stringify(toPlain(doc), null, 2).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`)}\n`;
  return renderStructuredDoc(doc, format, template);
}

async function renderStructuredDoc(doc: unknown, format: StructuredFormat, template?: string): Promise<string> {
  if (format === 'yaml') return renderCrictlYaml(doc);
  if (template === undefined) throw invalidArgument('--template is required with --output go-template');
  const { renderGoTemplate } = await import('./output/go-template.js');
  return `${renderGoTemplate(template, toPlain(doc))}\n`;
}

/** crictl's pod status JSON: createdAt as RFC 3339 in the local zone. */
export async function podStatusDoc(status: cri.PodSandboxStatus): Promise<Record<string, unknown>> {
  const doc = toPlain(await protoOrdered('PodSandboxStatus', status)) as Record<string, unknown>;
  doc.createdAt = rfc3339Nano(status.createdAt || '0');
  return doc;
}

/** crictl's container status JSON: createdAt always, startedAt once started, finishedAt once exited. */
export async function containerStatusDoc(status: cri.ContainerStatus): Promise<Record<string, unknown>> {
  const doc = toPlain(await protoOrdered('ContainerStatus', status)) as Record<string, unknown>;
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

/** Go's fmt %v of a map[string]string: "map[k1:v1 k2:v2]" with sorted keys. */
export function goMapString(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return `map[${keys.map((k) => `${k}:${m![k]}`).join(' ')}]`;
}

/** Validates -o as crictl does for lists ("unsupported output format"). */
export function listOutputFormat(value: string | undefined): 'table' | StructuredFormat {
  const v = value ?? 'table';
  if (v === 'table' || v === 'json' || v === 'yaml' || v === 'go-template') return v;
  throw invalidArgument(`unsupported output format "${v}"`);
}

/** Validates -o for inspect/inspectp: json by default; crictl says "output option cannot be X". */
export function inspectOutputFormat(value: string | undefined): 'table' | StructuredFormat {
  const v = value || 'json';
  if (v === 'table' || v === 'json' || v === 'yaml' || v === 'go-template') return v;
  throw invalidArgument(`output option cannot be ${v}`);
}

