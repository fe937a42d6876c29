// Structured output as crictl prints it: protobuf JSON of the response
// (lowerCamelCase names, int64 as strings, enums as names, bytes as base64),
// YAML of the same document, or a Go template over it.
import { loadYaml } from '../../util/cjs.js';
import { toPlain } from './to-plain.js';

export { toPlain };
export type OutputFormat = 'table' | 'json' | 'yaml' | 'go-template';

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
