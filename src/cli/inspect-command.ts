// The shape shared by `inspect` and `inspectp`: resolve each ID, ask for its
// verbose status, print it as crictl 1.34 does (JSON {info, status} by default,
// YAML, a Go template, or crictl's plain table).
import * as Flags from '@oclif/core/flags';
import { defineCommand, type CommandSpec } from './spec.js';
import { UsageError } from './errors.js';
import { inspectOutputFormat, renderStatusDoc, statusDocs, statusInfoDoc } from './status-output.js';
import type { CriBackend } from '../client/backend.js';

export interface InspectKind<R extends { info: Record<string, string> }> {
  verb: string;
  summary: string;
  idName: string;
  resolve(backend: CriBackend, input: string): Promise<string>;
  status(backend: CriBackend, id: string, verbose: boolean): Promise<R>;
  /** The status as protobuf JSON in field order (undefined when the runtime returned none). */
  doc(r: R): Promise<Record<string, unknown> | undefined>;
  table(r: R, verbose: boolean): string;
  errorPrefix(input: string): string;
}

export function inspectCommand<R extends { info: Record<string, string> }>(kind: InspectKind<R>): CommandSpec {
  return defineCommand({
    summary: kind.summary,
    usage: `${kind.verb} [flags] ${kind.idName} [${kind.idName}...]`,
    strict: false,
    flags: {
      output: Flags.string({ char: 'o', summary: 'Output format, One of: json|yaml|go-template|table' }),
      quiet: Flags.boolean({ char: 'q', summary: 'Do not show verbose information' }),
      template: Flags.string({ summary: 'The template string, used with --output go-template (Go template syntax)' }),
    },
    async run(ctx) {
      const ids: string[] = ctx.argv;
      if (ids.length === 0) throw new UsageError(`${kind.verb} needs at least one ${kind.idName}`);
      const output = inspectOutputFormat(ctx.flags.output);
      const verbose = !ctx.flags.quiet;
      const backend = await ctx.backend();
      // As crictl 1.34: tables as they come; documents all at the end, several as one array.
      const docs: Record<string, unknown>[] = [];
      for (const input of ids) {
        try {
          const id = await kind.resolve(backend, input);
          const r = await kind.status(backend, id, verbose);
          const doc = await kind.doc(r);
          if (!doc) throw new Error('the runtime returned no status');
          if (output === 'table') ctx.print(kind.table(r, verbose));
          else docs.push(statusInfoDoc(doc, r.info));
        } catch (err) {
          throw new Error(`${kind.errorPrefix(input)}: ${(err as Error).message}`, { cause: err });
        }
      }
      if (output !== 'table') ctx.print(await renderStatusDoc(statusDocs(docs), output, ctx.flags.template));
    },
  });
}
