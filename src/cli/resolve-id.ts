// Turns what the user typed into a full pod or container ID: an exact ID wins,
// a unique prefix resolves, an ambiguous prefix is an error that lists the
// candidates, and nothing matching is a not-found error worded as containerd
// words it (crictl prints the runtime's message). crictl itself does no name
// lookup for these verbs, so neither do we. A full 64-hex ID skips the listing
// RPC: it cannot be the prefix of another ID.
import type { CriBackend } from '../client/backend.js';
import { invalidArgument, notFound } from '../runtime/errors.js';

export type IdKind = 'sandbox' | 'container';

const FULL_ID = /^[0-9a-f]{64}$/;

/** Pure part: picks the one ID that `input` names among `ids`. */
export function matchId(ids: readonly string[], input: string, kind: IdKind): string {
  if (!input) throw invalidArgument('ID cannot be empty');
  if (ids.includes(input)) return input;
  const matches = ids.filter((id) => id.startsWith(input));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw notFound(`an error occurred when try to find ${kind} "${input}": not found`);
  const shown = matches.slice(0, 10).join(', ') + (matches.length > 10 ? `, ... (${matches.length} in all)` : '');
  throw invalidArgument(`${kind} ID prefix "${input}" is ambiguous: it matches ${shown}`);
}

export async function resolvePodId(backend: CriBackend, idOrPrefix: string): Promise<string> {
  if (FULL_ID.test(idOrPrefix)) return idOrPrefix;
  const { items } = await backend.listPodSandbox({});
  return matchId(items.map((p) => p.id), idOrPrefix, 'sandbox');
}

export async function resolveContainerId(backend: CriBackend, idOrPrefix: string): Promise<string> {
  if (FULL_ID.test(idOrPrefix)) return idOrPrefix;
  const { containers } = await backend.listContainers({});
  return matchId(containers.map((c) => c.id), idOrPrefix, 'container');
}

/**
 * For verbs that take many IDs and report each failure on its own (rm, rmp):
 * one listing RPC, then a matcher that throws per input.
 */
export async function podIdMatcher(backend: CriBackend, inputs: readonly string[]): Promise<(input: string) => string> {
  if (inputs.every((i) => FULL_ID.test(i))) return (i) => i;
  const ids = (await backend.listPodSandbox({})).items.map((p) => p.id);
  return (i) => (FULL_ID.test(i) ? i : matchId(ids, i, 'sandbox'));
}

export async function containerIdMatcher(backend: CriBackend, inputs: readonly string[]): Promise<(input: string) => string> {
  if (inputs.every((i) => FULL_ID.test(i))) return (i) => i;
  const ids = (await backend.listContainers({})).containers.map((c) => c.id);
  return (i) => (FULL_ID.test(i) ? i : matchId(ids, i, 'container'));
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
