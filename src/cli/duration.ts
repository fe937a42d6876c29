// Go-style durations as crictl takes them ("2s", "500ms", "1m30s"); a bare
// number is seconds, as crictl's config file stores the timeout.
const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  const s = text.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * 1000;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * UNITS[m[2]];
    matched = re.lastIndex;
  }
  if (!s || matched !== s.length) throw new Error(`invalid duration "${text}": use a number with a unit, e.g. 2s, 500ms, 1m`);
  return total;
}
