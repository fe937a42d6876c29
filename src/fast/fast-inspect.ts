// The fast path of `inspect`, `inspectp` and `inspecti` (src/fast/fast-cli.ts):
// the status calls by hand, the answers decoded by the descriptor's types
// (proto-decode.ts), and printed through the same pure renderers as the full
// CLI's commands (cli/output/status-doc.ts, status-tables.ts). It takes JSON
// (the default) and `-o table`, `-q`, and IDs, names or unique ID prefixes
// (resolved by one list call, as cli/resolve-id.ts does). Of the failures it
// prints those the full CLI words from what it knows alone: a name or prefix
// that matches nothing or several, NotFound from the status call, an image the
// runtime does not have. Anything else goes to the full CLI.
import type * as cri from '../api/cri.js';
import type { TypeDef } from '../api/proto-types.js';
import { STATUS_TYPES_JSON } from '../api/cri-v1-status-types.js';
import { matchId, type Candidate } from '../cli/resolve-id.js';
import { containerStatusDocIn, goMapString, orderBy, podStatusDocIn, statusDocJson, statusDocs, statusInfoDoc } from '../cli/output/status-doc.js';
import { containerStatusTable, imageStatusTable, podStatusTable } from '../cli/output/status-tables.js';
import { toPlain } from '../cli/output/to-plain.js';
import { decodeContainers, decodePods } from './cri-wire.js';
import { decodeMessage } from './proto-decode.js';
import { GrpcStatus } from './h2-unary.js';
import { containerStatusError, noSuchImage, podStatusError } from '../cli/inspect-errors.js';
import { oneLine } from '../cli/one-line.js';

export type InspectVerb = 'inspect' | 'inspectp' | 'inspecti';

export interface InspectArgs {
  ids: string[];
  table: boolean;
  verbose: boolean;
}

let ns: Record<string, TypeDef> | undefined;
/** The status answers' types (scripts/gen-proto.mjs), parsed on first use. */
export const statusTypes = (): Record<string, TypeDef> => (ns ??= JSON.parse(STATUS_TYPES_JSON) as Record<string, TypeDef>);
const FULL_ID = /^[0-9a-f]{64}$/;

/** The verb's flags and IDs, when they are within what the fast path handles. */
export function parseInspectArgs(tokens: string[]): InspectArgs | undefined {
  const args: InspectArgs = { ids: [], table: false, verbose: true };
  let output: string | undefined;
  let quiet = false;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (!tok.startsWith('-')) {
      args.ids.push(tok);
      continue;
    }
    const eq = tok.startsWith('--') ? tok.indexOf('=') : -1;
    const name = eq > 0 ? tok.slice(0, eq) : tok;
    if (name === '-q' || name === '--quiet') {
      if (eq > 0 || quiet) return undefined;
      quiet = true;
    } else if (name === '-o' || name === '--output') {
      const value = eq > 0 ? tok.slice(eq + 1) : tokens[++i];
      if (value === undefined || output !== undefined) return undefined;
      output = value;
    } else {
      return undefined;
    }
  }
  if (args.ids.length === 0 || (output !== undefined && output !== 'json' && output !== 'table')) return undefined;
  args.table = output === 'table';
  args.verbose = !quiet;
  return args;
}

/** A unary call on the chosen socket: the answer's message, an error status, or undefined for anything else. */
export type Rpc = (path: string, message: Buffer) => Promise<Buffer | GrpcStatus | undefined>;

/** What a call printed and its exit code. */
export interface InspectOutput {
  stdout: string;
  /** The error line, as the full CLI prints it. */
  error?: string;
  code: number;
}

/** A failure the full CLI would print as `isulats: <message>` (exit 1). */
class Printed extends Error {}

const NOT_FOUND = 5;

const RUNTIME = '/runtime.v1.RuntimeService/';
const IMAGE = '/runtime.v1.ImageService/';

/** What the verb prints, or undefined to hand the call to the full CLI. */
export async function runInspect(verb: InspectVerb, args: InspectArgs, rpc: Rpc): Promise<InspectOutput | undefined> {
  let candidates: Candidate[] | undefined;
  const prefix = verb === 'inspect' ? containerStatusError : podStatusError;
  const resolve = async (input: string): Promise<string | undefined> => {
    if (verb === 'inspecti' || FULL_ID.test(input)) return input;
    if (!candidates) {
      // As the full CLI's resolve: every pod or container, no filter.
      const res = await rpc(RUNTIME + (verb === 'inspect' ? 'ListContainers' : 'ListPodSandbox'), Buffer.alloc(0));
      const items = Buffer.isBuffer(res) ? (verb === 'inspect' ? decodeContainers(res) : decodePods(res)) : undefined;
      if (!items) return undefined;
      candidates = items.map((x) => ({ id: x.id, name: x.metadata?.name }));
    }
    try {
      return matchId(candidates, input, verb === 'inspect' ? 'container' : 'sandbox');
    } catch (err) {
      // Not found, or a name or prefix naming several: the full CLI's words (inspect-command.ts).
      throw new Printed(`${prefix(input)}: ${(err as Error).message}`);
    }
  };
  let text = '';
  const docs: Record<string, unknown>[] = [];
  try {
    for (const input of args.ids) {
      const id = await resolve(input);
      if (id === undefined) return undefined;
      const printed = await statusOf(verb, id, args, rpc);
      if (!printed) return undefined;
      if (printed instanceof GrpcStatus) {
        // NotFound, worded by the runtime (an empty message the full CLI words otherwise).
        if (printed.code !== NOT_FOUND || !printed.details) return undefined;
        throw new Printed(`${prefix(input)}: ${printed.details}`);
      }
      if (printed.table !== undefined) text += printed.table;
      else docs.push(printed.doc!);
    }
  } catch (err) {
    if (!(err instanceof Printed)) throw err;
    // Tables already printed stay; documents are printed only at the end, so none.
    return { stdout: text, error: oneLine(err.message), code: 1 };
  }
  return { stdout: args.table ? text : statusDocJson(statusDocs(docs)), code: 0 };
}

/** One status: its table text, or its document (only the form asked for: a table of a pod reads the zone's name through Intl, 8 MiB). */
async function statusOf(verb: InspectVerb, id: string, args: InspectArgs, rpc: Rpc): Promise<{ table?: string; doc?: Record<string, unknown> } | GrpcStatus | undefined> {
  if (verb === 'inspecti') {
    const res = await rpc(IMAGE + 'ImageStatus', statusRequest(imageSpec(id), args.verbose));
    const r = Buffer.isBuffer(res) ? (decodeMessage(statusTypes(), 'ImageStatusResponse', res) as unknown as cri.ImageStatusResponse | undefined) : undefined;
    if (!r) return undefined;
    if (!r.image) throw new Printed(noSuchImage(id));
    if (args.table) return { table: imageStatusTable(r) + (args.verbose ? `Info: ${goMapString(r.info)}\n` : '') };
    return { doc: statusInfoDoc(toPlain(orderBy(statusTypes(), 'Image', r.image)) as Record<string, unknown>, r.info) };
  }
  if (verb === 'inspectp') {
    const res = await rpc(RUNTIME + 'PodSandboxStatus', statusRequest(stringField(1, id), args.verbose));
    if (res instanceof GrpcStatus) return res;
    const r = res && (decodeMessage(statusTypes(), 'PodSandboxStatusResponse', res) as unknown as cri.PodSandboxStatusResponse | undefined);
    if (!r?.status) return undefined;
    return args.table ? { table: podStatusTable(r, args.verbose) } : { doc: statusInfoDoc(podStatusDocIn(statusTypes(), r.status), r.info) };
  }
  const res = await rpc(RUNTIME + 'ContainerStatus', statusRequest(stringField(1, id), args.verbose));
  if (res instanceof GrpcStatus) return res;
  const r = res && (decodeMessage(statusTypes(), 'ContainerStatusResponse', res) as unknown as cri.ContainerStatusResponse | undefined);
  if (!r?.status) return undefined;
  return args.table ? { table: containerStatusTable(r, args.verbose) } : { doc: statusInfoDoc(containerStatusDocIn(statusTypes(), r.status), r.info) };
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

/** Field `n` of wire type 2 holding `value` (a string, or an encoded message). */
function stringField(n: number, value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([Buffer.from([(n << 3) | 2]), varint(bytes.length), bytes]);
}

/** ImageSpec{image} as field 1 of ImageStatusRequest. */
const imageSpec = (image: string): Buffer => stringField(1, stringField(1, image));

/** {field 1, verbose = field 2}: ContainerStatusRequest, PodSandboxStatusRequest, ImageStatusRequest; as protobufjs writes them (verbose always). */
function statusRequest(first: Buffer, verbose: boolean): Buffer {
  return Buffer.concat([first, Buffer.from([0x10, verbose ? 1 : 0])]);
}
