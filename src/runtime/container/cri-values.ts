// Normalisers for CRI input values: int64 fields arrive as number, decimal
// string or Long; enums as names or numbers.
export type Int64Like = number | string | { toString(): string } | null | undefined;

export function toInt(v: Int64Like, fallback = 0): number {
  if (v === null || v === undefined || v === '') return fallback;
  const n = Number(typeof v === 'number' ? v : v.toString());
  return Number.isFinite(n) ? n : fallback;
}

export function toBigIntString(v: Int64Like): string {
  if (v === null || v === undefined || v === '') return '0';
  return BigInt(typeof v === 'number' ? Math.trunc(v) : v.toString()).toString();
}

/** An enum value as its name; numbers are looked up in `names` (proto order). */
export function enumName<T extends string>(v: T | number | null | undefined, names: readonly T[]): T {
  if (typeof v === 'number') return names[v] ?? names[0]!;
  return v ?? names[0]!;
}

export const NAMESPACE_MODES = ['POD', 'CONTAINER', 'NODE', 'TARGET'] as const;
export type NsMode = (typeof NAMESPACE_MODES)[number];
export const PROFILE_TYPES = ['RuntimeDefault', 'Unconfined', 'Localhost'] as const;
export const SUPPLEMENTAL_GROUPS_POLICIES = ['Merge', 'Strict'] as const;
export const PROPAGATIONS = ['PROPAGATION_PRIVATE', 'PROPAGATION_HOST_TO_CONTAINER', 'PROPAGATION_BIDIRECTIONAL'] as const;
export const CONTAINER_STATES = ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'] as const;
export const SANDBOX_STATES = ['SANDBOX_READY', 'SANDBOX_NOTREADY'] as const;
export const PROTOCOLS = ['TCP', 'UDP', 'SCTP'] as const;

export function nowNs(): string {
  return (BigInt(Date.now()) * 1_000_000n + process.hrtime.bigint() % 1_000_000n).toString();
}
