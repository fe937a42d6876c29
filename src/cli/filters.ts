// crictl's list filters and cell formats for pods and ps: label parsing,
// state names, name/namespace regexps, newest-first ordering with --latest /
// --last, 13-character IDs, and Go's time formats where crictl prints them.
import { invalidArgument } from '../runtime/errors.js';

export const TRUNCATED_ID_LEN = 13;

/** `--label k=v` (repeatable) → selector; crictl refuses anything but exactly one '='. */
export function parseLabels(list: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of list ?? []) {
    const pair = s.split('=');
    if (pair.length !== 2) throw invalidArgument(`incorrectly specified label: ${s}`);
    out[pair[0]] = pair[1];
  }
  return out;
}

export function podStateFilter(state: string): 'SANDBOX_READY' | 'SANDBOX_NOTREADY' {
  switch (state.toLowerCase()) {
    case 'ready':
      return 'SANDBOX_READY';
    case 'notready':
      return 'SANDBOX_NOTREADY';
    default:
      throw invalidArgument('--state should be ready or notready');
  }
}

export type ContainerStateName = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export function containerStateFilter(state: string): ContainerStateName {
  switch (state.toLowerCase()) {
    case 'created':
      return 'CONTAINER_CREATED';
    case 'running':
      return 'CONTAINER_RUNNING';
    case 'exited':
      return 'CONTAINER_EXITED';
    case 'unknown':
      return 'CONTAINER_UNKNOWN';
    default:
      throw invalidArgument('--state should be one of created, running, exited or unknown');
  }
}

/** Go's regexp.MatchString: an unanchored search; an invalid pattern matches nothing. */
export function matchesRegex(pattern: string | undefined, target: string): boolean {
  if (!pattern) return true;
  try {
    return new RegExp(pattern).test(target);
  } catch {
    return false;
  }
}

/** Newest first, then at most 1 (--latest) or n (--last n > 0) items. */
export function newestFirst<T extends { createdAt: string }>(items: readonly T[], opts: { latest?: boolean; last?: number }): T[] {
  const sorted = [...items].sort((a, b) => {
    const x = BigInt(a.createdAt || '0');
    const y = BigInt(b.createdAt || '0');
    return x > y ? -1 : x < y ? 1 : 0;
  });
  let n = sorted.length;
  if (opts.latest) n = 1;
  if (opts.last && opts.last > 0) n = opts.last;
  return sorted.slice(0, Math.min(n, sorted.length));
}

export function truncateId(id: string, prefix = ''): string {
  const s = prefix && id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return s.length > TRUNCATED_ID_LEN ? s.slice(0, TRUNCATED_ID_LEN) : s;
}

/** crictl's IMAGE column: a digest ("sha256:abc...") loses its algorithm and is cut to 13; a reference stays. */
export function truncateImage(image: string): string {
  const m = /^([a-z0-9]+(?:[.+_-][a-z0-9]+)*):([a-zA-Z0-9=_-]{32,})$/.exec(image);
  if (!m) return image;
  return truncateId(image, `${m[1]}:`);
}

export function podStateText(state: string): string {
  return state === 'SANDBOX_READY' ? 'Ready' : state === 'SANDBOX_NOTREADY' ? 'NotReady' : state;
}

export function containerStateText(state: string): string {
  const names: Record<string, string> = {
    CONTAINER_CREATED: 'Created',
    CONTAINER_RUNNING: 'Running',
    CONTAINER_EXITED: 'Exited',
    CONTAINER_UNKNOWN: 'Unknown',
  };
  return names[state] ?? state;
}

export const POD_NAME_LABEL = 'io.kubernetes.pod.name';

export const POD_NAMESPACE_LABEL = 'io.kubernetes.pod.namespace';

export function podNameFromLabels(labels: Record<string, string> | undefined): string {
  return labels?.[POD_NAME_LABEL] ?? 'unknown';
}

/** crictl 1.34's NAMESPACE column (and `Namespace:` line): kubelet's label on the container. */
export function podNamespaceFromLabels(labels: Record<string, string> | undefined): string {
  return labels?.[POD_NAMESPACE_LABEL] ?? 'unknown';
}

/** Sorted keys, as crictl prints label and annotation maps. */
export function sortedKeys(m: Record<string, string> | undefined): string[] {
  return Object.keys(m ?? {}).sort();
}

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  frac: string;
  offsetMin: number;
}

function parts(nanos: bigint, offsetMin: number): Parts {
  const secs = nanos / 1_000_000_000n - (nanos % 1_000_000_000n < 0n ? 1n : 0n);
  const ns = nanos - secs * 1_000_000_000n;
  const d = new Date(Number(secs) * 1000 + offsetMin * 60_000);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
    frac: ns === 0n ? '' : `.${ns.toString().padStart(9, '0').replace(/0+$/, '')}`,
    offsetMin,
  };
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** Offset of the local zone at `nanos`, in minutes east of UTC. */
function localOffset(nanos: bigint): number {
  return -new Date(Number(nanos / 1_000_000n)).getTimezoneOffset();
}

/** Go's time.Unix(0, n).Format(time.RFC3339Nano) in the local zone. */
export function rfc3339Nano(nanos: string | bigint, offsetMin = localOffset(BigInt(nanos))): string {
  const p = parts(BigInt(nanos), offsetMin);
  return `${String(p.y).padStart(4, '0')}-${p2(p.mo)}-${p2(p.d)}T${p2(p.h)}:${p2(p.mi)}:${p2(p.s)}${p.frac}${zoneSuffix(offsetMin, ':')}`;
}

/** Go's zero time.Time formatted as RFC3339Nano (crictl's startedAt of a never-started container). */
export const GO_ZERO_TIME_RFC3339 = '0001-01-01T00:00:00Z';

/** Go's default time.Time String(): "2006-01-02 15:04:05.999999999 -0700 MST". */
export function goTimeString(nanos: string | bigint, offsetMin = localOffset(BigInt(nanos)), zoneName = localZoneName(BigInt(nanos))): string {
  const p = parts(BigInt(nanos), offsetMin);
  return `${p.y}-${p2(p.mo)}-${p2(p.d)} ${p2(p.h)}:${p2(p.mi)}:${p2(p.s)}${p.frac} ${zoneSuffix(offsetMin, '', true)} ${zoneName}`;
}

function zoneSuffix(offsetMin: number, sep: string, numericZero = false): string {
  if (offsetMin === 0 && !numericZero) return 'Z';
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${sign}${p2(Math.floor(a / 60))}${sep}${p2(a % 60)}`;
}

function localZoneName(nanos: bigint): string {
  const offset = localOffset(nanos);
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
      .formatToParts(new Date(Number(nanos / 1_000_000n)))
      .find((x) => x.type === 'timeZoneName')?.value;
    if (name && !/^GMT/.test(name)) return name;
  } catch {
    // Intl without time zone data: fall through to the numeric name.
  }
  return offset === 0 ? 'UTC' : zoneSuffix(offset, '', true);
}

/**
 * crictl's "Labels:" / "Annotations:" block, one "\tk -> v" line per sorted key.
 * Go prints it for a non-nil map, and a map absent on the wire decodes as nil,
 * so an empty map prints nothing.
 */
export function mapSection(title: string, m: Record<string, string> | undefined): string {
  const keys = sortedKeys(m);
  if (keys.length === 0) return '';
  return `${title}:\n${keys.map((k) => `\t${k} -> ${m![k]}\n`).join('')}`;
}

/** k8s' errors.NewAggregate message: one error as is, several as "[e1, e2]". */
export function aggregateErrors(errors: readonly Error[]): Error | undefined {
  if (errors.length === 0) return undefined;
  if (errors.length === 1) return errors[0];
  return new Error(`[${errors.map((e) => e.message).join(', ')}]`);
}
