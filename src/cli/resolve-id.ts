// Turns what the user typed into a full pod or container ID, in docker's and
// isula's order: an exact ID, then an exact name (metadata.name: `run --name
// web` then `exec web`), then a unique ID prefix. A name or prefix that names
// several is an error that lists the candidates, and nothing matching is a
// not-found error worded as containerd words it (crictl prints the runtime's
// message). A full 64-hex ID skips the listing RPC: it cannot be the prefix of
// another ID.
import type { CriBackend } from '../client/backend.js';
import { invalidArgument, notFound } from '../runtime/errors.js';

export type IdKind = 'sandbox' | 'container';

const FULL_ID = /^[0-9a-f]{64}$/;

/** A pod or container as the lookup sees it: its ID and, when it has one, its metadata name. */
export interface Candidate {
  id: string;
  name?: string;
}

/** Pure part: picks the one ID that `input` names among `items` (IDs, or IDs with names). */
export function matchId(items: readonly (string | Candidate)[], input: string, kind: IdKind): string {
  if (!input) throw invalidArgument('ID cannot be empty');
  const all = items.map((c) => (typeof c === 'string' ? { id: c } : c));
  if (all.some((c) => c.id === input)) return input;
  const named = all.filter((c) => c.name === input).map((c) => c.id);
  if (named.length === 1) return named[0];
  if (named.length > 1) throw invalidArgument(`${kind} name "${input}" is ambiguous: it names ${shown(named)}`);
  const matches = all.filter((c) => c.id.startsWith(input)).map((c) => c.id);
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw notFound(`an error occurred when try to find ${kind} "${input}": not found`);
  throw invalidArgument(`${kind} ID prefix "${input}" is ambiguous: it matches ${shown(matches)}`);
}

function shown(ids: readonly string[]): string {
  return ids.slice(0, 10).join(', ') + (ids.length > 10 ? `, ... (${ids.length} in all)` : '');
}

const podCandidates = async (backend: CriBackend): Promise<Candidate[]> =>
  (await backend.listPodSandbox({})).items.map((p) => ({ id: p.id, name: p.metadata?.name }));

const containerCandidates = async (backend: CriBackend): Promise<Candidate[]> =>
  (await backend.listContainers({})).containers.map((c) => ({ id: c.id, name: c.metadata?.name }));

export async function resolvePodId(backend: CriBackend, input: string): Promise<string> {
  if (FULL_ID.test(input)) return input;
  return matchId(await podCandidates(backend), input, 'sandbox');
}

export async function resolveContainerId(backend: CriBackend, input: string): Promise<string> {
  if (FULL_ID.test(input)) return input;
  return matchId(await containerCandidates(backend), input, 'container');
}

/**
 * For the verbs the CRI makes idempotent (stop, stopp): what names nothing goes to the runtime as
 * typed, as crictl sends it, so the runtime's answer decides (containerd and ours: stopped, exit 0).
 */
export async function resolveOrAsTyped(resolve: (backend: CriBackend, input: string) => Promise<string>, backend: CriBackend, input: string): Promise<string> {
  try {
    return await resolve(backend, input);
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not-found') return input;
    throw err;
  }
}

/**
 * For verbs that take many IDs and report each failure on its own (rm, rmp):
 * one listing RPC, then a matcher that throws per input.
 */
export async function podIdMatcher(backend: CriBackend, inputs: readonly string[]): Promise<(input: string) => string> {
  if (inputs.every((i) => FULL_ID.test(i))) return (i) => i;
  const pods = await podCandidates(backend);
  return (i) => (FULL_ID.test(i) ? i : matchId(pods, i, 'sandbox'));
}

export async function containerIdMatcher(backend: CriBackend, inputs: readonly string[]): Promise<(input: string) => string> {
  if (inputs.every((i) => FULL_ID.test(i))) return (i) => i;
  const containers = await containerCandidates(backend);
  return (i) => (FULL_ID.test(i) ? i : matchId(containers, i, 'container'));
}

/**
 * For list filters (--id, --pod): a prefix resolves as above, an ambiguous one
 * is an error, and an ID that matches nothing is kept as typed, so the list is
 * simply empty (as with containerd, which resolves filter IDs itself).
 */
export function filterId(ids: readonly string[], input: string, kind: IdKind): string {
  try {
    return matchId(ids, input, kind);
  } catch (err) {
    if ((err as { kind?: string }).kind === 'not-found') return input;
    throw err;
  }
}
