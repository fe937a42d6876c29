// Structured output as crictl prints it: protobuf JSON of the response
// (lowerCamelCase names, int64 as strings, enums as names, bytes as base64),
// YAML of the same document, or a Go template over it.
import { loadYaml } from '../../util/cjs.js';
export type OutputFormat = 'table' | 'json' | 'yaml' | 'go-template';

/** Plain JSON-able value: Buffers become base64, bigints strings, undefined fields dropped. */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return value.map(toPlain);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      out[k] = toPlain(v);
    }
    return out;
  }
  return value;
}

export function renderJson(doc: unknown): string {
  return `${JSON.stringify(toPlain(doc), null, 2)}\n`;
}

export async function renderYaml(doc: unknown): Promise<string> {
  const { stringify } = await loadYaml();
  return stringify(toPlain(doc));
}

export async function renderStructured(doc: unknown, format: OutputFormat, template?: string): Promise<string> {
  if (format === 'json') return renderJson(doc);
  if (format === 'yaml') return renderYaml(doc);
  if (format === 'go-template') {
    if (!template) throw new Error('--template is required with --output go-template');
    const { renderGoTemplate } = await import('./go-template.js');
    return renderGoTemplate(template, toPlain(doc));
  }
  throw new Error(`unsupported output format "${format}"`);
}
