// Human-readable sizes and durations as crictl prints them (docker/go-units).
const DECIMAL = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'];

/** go-units HumanSizeWithPrecision(size, 3): "1.23MB", "5.62kB", "745B". */
export function humanSize(bytes: number, precision = 3): string {
  return customSize(bytes, 1000, DECIMAL, precision);
}

/** go-units BytesSize: "1.5MiB". */
export function bytesSize(bytes: number): string {
  return customSize(bytes, 1024, BINARY, 4);
}

function customSize(size: number, base: number, units: string[], precision: number): string {
  let i = 0;
  while (size >= base && i < units.length - 1) {
    size /= base;
    i++;
  }
  return `${formatG(size, precision)}${units[i]}`;
}

/** Go's %.<p>g: at most p significant digits, trailing zeros dropped. */
export function formatG(n: number, precision: number): string {
  if (n === 0) return '0';
  // The exponent after rounding to `precision` digits decides the form, as in Go.
  const [mant, e] = n.toExponential(precision - 1).split('e');
  const exp = Number(e);
  const trim = (t: string) => (t.includes('.') ? t.replace(/0+$/, '').replace(/\.$/, '') : t);
  if (exp < -4 || exp >= precision) return `${trim(mant)}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return trim(n.toFixed(Math.max(0, precision - 1 - exp)));
}

/** go-units HumanDuration: "Less than a second", "About a minute", "3 hours", "2 weeks". */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(ms / 3_600_000);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(hours / 24 / 365)} years`;
}

/** crictl's CREATED column: "<duration> ago" from a nanosecond timestamp string. */
export function ago(nanos: string | number | bigint, now = Date.now()): string {
  const ms = Number(BigInt(nanos) / 1_000_000n);
  return `${humanDuration(now - ms)} ago`;
}
