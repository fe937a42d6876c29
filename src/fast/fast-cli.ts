// The fast path of the commonest read-only calls against a unix socket:
// `version`, `pods` and `ps` (table, -q, -a, --no-trunc), `inspect`, `inspectp`
// and `inspecti` (JSON or -o table, -q; fast-inspect.ts), on the socket named
// (-r, CONTAINER_RUNTIME_ENDPOINT) or else the first known one that answers. bin/isulats tries it
// before loading the full CLI bundle (1.5 MB: oclif's parser, grpc-js,
// protobufjs), which costs a call about twice Node's own start. Anything this
// does not handle exactly as the full CLI would (another flag, no endpoint
// named and a known socket that does not answer plainly, a config file to read,
// an error answer) is declined and the full CLI
// runs the call from the start: these verbs only read, so nothing is done twice.
// Its output is checked against the full CLI's, byte for byte, by
// test/integration/cli-fast-path.test.ts.
import { existsSync } from 'node:fs';
import type * as cri from '../api/cri.js';
import { socketPath } from '../client/endpoint.js';
import { knownEndpoints, probedNote } from '../client/known-endpoints.js';
import { parseDuration } from '../cli/duration.js';
import { MAX_RPC_TIMEOUT_MS } from '../util/timer-delay.js';
import { containerStateText, matchesRegex, newestFirst, podNameFromLabels, podStateText, truncateId, truncateImage } from '../cli/filters.js';
import { table } from '../cli/output/tabwriter.js';
import { CONTAINERS_HEADER, containerRow, PODS_HEADER, podRow } from '../cli/output/list-tables.js';
import { ago } from '../cli/output/units.js';
import { decodeContainers, decodePods, decodeVersion, LIST_PODS_REQUEST, listContainersRequest, VERSION_REQUEST } from './cri-wire.js';
import { unaryCall } from './h2-unary.js';
import { writeAllSync, WRITTEN } from './write-sync.js';
import { parseInspectArgs, runInspect, type InspectArgs, type InspectVerb } from './fast-inspect.js';

type Verb = 'version' | 'pods' | 'ps' | InspectVerb;

// The full CLI's defaults (src/client/config-file.ts, src/cli/context.ts), repeated here because
// importing those modules would bring their lazy imports (yaml, grpc-js, the engine) into this
// bundle; test/unit/fast-path.test.ts checks they agree.
export const FAST_DEFAULT_CONFIG_PATH = '/etc/isulats/isulats.yaml';
export const FAST_DEFAULT_TIMEOUT_MS = 2000;

interface FastCall {
  verb: Verb;
  /** The named socket; empty: probe the known ones (`probe`), as the full CLI does. */
  socket: string;
  probe: string[];
  timeoutMs: number;
  quiet: boolean;
  all: boolean;
  noTrunc: boolean;
  /** inspect, inspectp, inspecti: their IDs and output. */
  inspect?: InspectArgs;
}

const VERBS: Record<string, Verb> = {
  version: 'version', pods: 'pods', pod: 'pods', ps: 'ps', container: 'ps', containers: 'ps',
  inspect: 'inspect', inspectp: 'inspectp', inspecti: 'inspecti',
};
type ListVerb = 'version' | 'pods' | 'ps';
/** Each verb's flags the fast path takes (long name → field); short ones may be grouped (-aq). */
const LONG: Record<ListVerb, Record<string, 'quiet' | 'all' | 'noTrunc'>> = {
  version: {},
  pods: { '--quiet': 'quiet', '--no-trunc': 'noTrunc' },
  ps: { '--quiet': 'quiet', '--all': 'all', '--no-trunc': 'noTrunc' },
};
const SHORT: Record<ListVerb, Record<string, 'quiet' | 'all'>> = { version: {}, pods: { q: 'quiet' }, ps: { q: 'quiet', a: 'all' } };

/** The call, when argv and the environment are within what the fast path handles. */
export function fastCall(argv: string[], env: NodeJS.ProcessEnv): FastCall | undefined {
  let endpoint = env.CONTAINER_RUNTIME_ENDPOINT || undefined;
  let timeout: string | undefined;
  let i = 0;
  // Global flags before the verb: only -r/--runtime-endpoint and -t/--timeout.
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    const tok = argv[i];
    const eq = tok.indexOf('=');
    const name = eq > 0 ? tok.slice(0, eq) : tok;
    const value = eq > 0 ? tok.slice(eq + 1) : argv[++i];
    if (value === undefined) return undefined;
    if (name === '-r' || name === '--runtime-endpoint') endpoint = value;
    else if (name === '-t' || name === '--timeout') timeout = value;
    else return undefined;
  }
  const verb = VERBS[argv[i++]];
  if (!verb || env.CRI_CONFIG_FILE || existsSync(FAST_DEFAULT_CONFIG_PATH)) return undefined;
  const call: FastCall = { verb, socket: '', probe: [], timeoutMs: FAST_DEFAULT_TIMEOUT_MS, quiet: false, all: false, noTrunc: false };
  if (verb === 'inspect' || verb === 'inspectp' || verb === 'inspecti') {
    call.inspect = parseInspectArgs(argv.slice(i));
    // inspecti asks the image service, which may be elsewhere.
    if (!call.inspect || (verb === 'inspecti' && env.IMAGE_SERVICE_ENDPOINT)) return undefined;
    i = argv.length;
  }
  for (; i < argv.length; i++) {
    const tok = argv[i];
    const lv = verb as ListVerb;
    const long = LONG[lv][tok];
    if (long) call[long] = true;
    else if (/^-[a-z]+$/.test(tok) && [...tok.slice(1)].every((c) => SHORT[lv][c])) for (const c of tok.slice(1)) call[SHORT[lv][c]] = true;
    else return undefined;
  }
  try {
    if (endpoint) {
      const path = socketPath(endpoint);
      if (!path) return undefined;
      call.socket = path;
    } else {
      call.probe = knownEndpoints(env).map((k) => k.endpoint);
    }
    if (timeout !== undefined) {
      const ms = parseDuration(timeout);
      // As the full CLI: a deadline past what a timer holds is the longest one it holds.
      if (ms > 0) call.timeoutMs = Math.min(ms, MAX_RPC_TIMEOUT_MS);
    }
  } catch {
    return undefined;
  }
  return call;
}

/** What a call prints: stdout, and the note on stderr when the socket was found by probing. */
export interface FastOutput {
  stdout: string;
  stderr?: string;
  /** The error line, printed on stderr after stdout (as the full CLI does). */
  error?: string;
  /** The exit code; 0 when absent. */
  code?: number;
}

/** Runs the call; its output, or undefined to hand the call to the full CLI. */
export async function runFastCall(call: FastCall): Promise<FastOutput | undefined> {
  const service = '/runtime.v1.RuntimeService/';
  // version, pods and ps take a plain success only: any error status is the full CLI's to report.
  const rpc = (socket: string, method: string, message: Buffer) =>
    unaryCall({ socket, path: service + method, message, timeoutMs: call.timeoutMs }).then((r) => (Buffer.isBuffer(r) ? r : undefined));
  let socket = call.socket;
  let note: string | undefined;
  let version: Buffer | undefined;
  if (!socket) {
    // The full CLI's probe, in its order: an absent socket file is passed over; the first present one
    // must answer Version plainly, else the full CLI decides (a stale file, an error, v1alpha2 only).
    for (const endpoint of call.probe) {
      const path = socketPath(endpoint);
      if (!path) return undefined;
      if (!existsSync(path)) continue;
      version = await rpc(path, 'Version', VERSION_REQUEST);
      if (!version) return undefined;
      socket = path;
      note = `${probedNote(endpoint)}\n`;
      break;
    }
    if (!socket) return undefined; // the embedded engine's turn
  }
  const out = (text: string | undefined) => (text === undefined ? undefined : { stdout: text, stderr: note });
  if (call.inspect) {
    const path = socket;
    const inspectRpc = (method: string, message: Buffer) => unaryCall({ socket: path, path: method, message, timeoutMs: call.timeoutMs });
    const r = await runInspect(call.verb as InspectVerb, call.inspect, inspectRpc);
    return r && { stdout: r.stdout, stderr: note, error: r.error === undefined ? undefined : `isulats: ${r.error}\n`, code: r.code };
  }
  if (call.verb === 'version') {
    const res = version ?? (await rpc(socket, 'Version', VERSION_REQUEST));
    const v = res && decodeVersion(res);
    // crictl prints with Go's fmt.Println("Key: ", value): two spaces (src/commands/version.ts).
    return out(v && `Version:  ${v.version}\nRuntimeName:  ${v.runtimeName}\nRuntimeVersion:  ${v.runtimeVersion}\nRuntimeApiVersion:  ${v.runtimeApiVersion}\n`);
  }
  if (call.verb === 'pods') {
    const res = await rpc(socket, 'ListPodSandbox', LIST_PODS_REQUEST);
    const items = res && decodePods(res);
    return out(items && podsText(items, call));
  }
  const res = await rpc(socket, 'ListContainers', listContainersRequest(call.all));
  const containers = res && decodeContainers(res);
  return out(containers && psText(containers, call));
}

/** As src/commands/pods.ts renders a table or -q. */
function podsText(items: cri.PodSandbox[], call: FastCall): string {
  const pods = newestFirst(items.filter((p) => p.metadata && matchesRegex(undefined, p.metadata.name)), {});
  if (call.quiet) return pods.map((p) => `${p.id}\n`).join('');
  return table(PODS_HEADER, pods.map((p) => podRow(p, call.noTrunc)));
}

/** As src/commands/ps.ts renders a table or -q. */
function psText(containers: cri.Container[], call: FastCall): string {
  const list = newestFirst(containers, {});
  if (call.quiet) return list.map((c) => `${c.id}\n`).join('');
  return table(CONTAINERS_HEADER, list.map((c) => containerRow(c, call.noTrunc, call.noTrunc ? c.image?.image ?? '' : truncateImage(c.image?.image ?? ''))));
}

/**
 * The entry of both shipped forms (bin/isulats.cjs, src/sea/main.ts): the fast path when it
 * takes the call, else `full` (the full CLI). ISULATS_NO_FAST_PATH=1 always runs the full CLI;
 * ISULATS_FAST_PATH=require makes a declined call exit 97 instead (for tests comparing the paths).
 */
export function fastThenFull(argv: string[], full: () => void): void {
  let fast: Promise<number | undefined> | undefined;
  if (!process.env.ISULATS_NO_FAST_PATH) {
    try {
      fast = tryFast(argv);
    } catch {
      // a fault here must never cost the call: the full CLI runs it
    }
  }
  const declined = () => {
    if (process.env.ISULATS_FAST_PATH !== 'require') return full();
    process.stderr.write('isulats: the fast path declined this call (ISULATS_FAST_PATH=require)\n');
    process.exit(97);
  };
  if (fast) void fast.then((code) => (code === undefined ? declined() : process.exit(code)));
  else declined();
}

/**
 * The fast path's own entry: undefined at once when the call is not one for the fast
 * path, else a promise of the exit code, or of undefined when the full CLI must
 * run it after all. Nothing is printed in that case.
 */
export function tryFast(argv: string[]): Promise<number | undefined> | undefined {
  const call = fastCall(argv, process.env);
  if (!call) return undefined;
  return runFastCall(call).then((output) => {
    if (output === undefined) return undefined;
    if (output.stderr) writeStderr(output.stderr);
    return new Promise<number>((resolve) => {
      const done = () => {
        if (output.error) writeStderr(output.error);
        resolve(output.code ?? 0);
      };
      let left: string | null;
      try {
        left = writeAllSync(1, output.stdout);
      } catch (err) {
        // Output that could not be written (a full disk) must not pass for success.
        writeStderr(`isulats: writing the output: ${(err as Error).message}\n`);
        return resolve(1);
      }
      // A reader that went away (| head -1) ends the call quietly, as crictl's does.
      if (left === null) return resolve(0);
      if (left === WRITTEN) return done();
      process.stdout.on('error', () => process.exit(0));
      process.stdout.write(left, done);
    });
  }, () => undefined);
}

/** A line on stderr; the stream only when the descriptor would block. */
function writeStderr(text: string): void {
  try {
    const left = writeAllSync(2, text);
    if (left) process.stderr.write(left);
  } catch {
    // stderr gone: nothing to tell anyone
  }
}
