// Fully qualified CDI device names, `vendor.com/class=name`, checked with the
// reference parser's rules (pkg/parser): vendor and class start with a letter,
// end with a letter or digit, and hold letters, digits, '_', '-' and '.';
// a device name may also start with a digit and hold ':'. There is no
// wildcard: `=all` is an ordinary name some vendors (NVIDIA) define in their specs.

export interface QualifiedName {
  vendor: string;
  class: string;
  name: string;
}

const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAlnum = (c: string) => isLetter(c) || (c >= '0' && c <= '9');

function checkLabel(what: string, s: string, first: (c: string) => boolean, inner: string): string | undefined {
  if (s === '') return `empty ${what}`;
  if (!first(s[0]!)) return `${what} "${s}" should start with ${first === isLetter ? 'a letter' : 'a letter or digit'}`;
  for (const c of s.slice(1, -1)) {
    if (!isAlnum(c) && !inner.includes(c)) return `invalid character '${c}' in ${what} "${s}"`;
  }
  if (s.length > 1 && !isAlnum(s[s.length - 1]!)) return `${what} "${s}" should end with a letter or digit`;
  return undefined;
}

export const vendorProblem = (v: string) => checkLabel('vendor', v, isLetter, '_-.');
export const classProblem = (c: string) => checkLabel('class', c, isLetter, '_-.');
export const deviceNameProblem = (n: string) => checkLabel('device name', n, isAlnum, '_-.:');

/** Splits `vendor/class` (a spec's kind); undefined parts when it does not have that shape. */
export function parseKind(kind: string): { vendor: string; class: string } | undefined {
  const slash = kind.indexOf('/');
  if (slash <= 0 || slash === kind.length - 1) return undefined;
  return { vendor: kind.slice(0, slash), class: kind.slice(slash + 1) };
}

/** Parses a fully qualified name, or says in one phrase why it is not one. */
export function parseQualifiedName(device: string): QualifiedName | { error: string } {
  const eq = device.indexOf('=');
  const kind = eq > 0 ? parseKind(device.slice(0, eq)) : undefined;
  const name = eq > 0 ? device.slice(eq + 1) : '';
  if (device.startsWith('/') || !kind || name === '') return { error: `unqualified device "${device}" (expected vendor.com/class=name)` };
  const problem = vendorProblem(kind.vendor) ?? classProblem(kind.class) ?? deviceNameProblem(name);
  if (problem) return { error: `invalid device "${device}": ${problem}` };
  return { vendor: kind.vendor, class: kind.class, name };
}

export function isQualifiedName(device: string): boolean {
  return !('error' in parseQualifiedName(device));
}
