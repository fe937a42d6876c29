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
import { invalidArgument } from '../runtime/errors.js';
import { runtimeV1Namespace } from './config-loader.js';
import { containerStatusDocIn, orderBy, podStatusDocIn, sortKeysDeep, statusDocJson } from './output/status-doc.js';
import { loadYaml } from '../util/cjs.js';

// The pure parts live in output/status-doc.ts, which the CLI's fast path shares.
export { goMapString, sortKeysDeep, statusDocs, statusInfoDoc } from './output/status-doc.js';

/** `value` with its keys in protobuf JSON's order, by the runtime.v1 descriptor (see orderBy). */
export async function protoOrdered(typeName: string, value: unknown): Promise<unknown> {
  return orderBy(await runtimeV1Namespace(), typeName, value);
}

export type StructuredFormat = 'json' | 'yaml' | 'go-template';

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
  if (format === 'json') return statusDocJson(doc);
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
  return podStatusDocIn(await runtimeV1Namespace(), status);
}

/** crictl's container status JSON: createdAt always, startedAt once started, finishedAt once exited. */
export async function containerStatusDoc(status: cri.ContainerStatus): Promise<Record<string, unknown>> {
  return containerStatusDocIn(await runtimeV1Namespace(), status);
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

