// CNI config files as libcni reads them: each must parse, name its plugins,
// find every plugin binary in a bin dir, and give pods a subnet that does not
// collide with the host's own routes (a route of the config's own bridge is
// its doing, not a collision).
import { fail, ok, type CheckResult } from '../check-result.js';

export interface CniFacts {
  confDir: string;
  /** Config files (.conf, .conflist, .json) with their text, in the order libcni loads them. */
  files: Array<{ name: string; text: string }>;
  binDirs: string[];
  /** Executable names per bin dir (missing dirs have none). */
  binaries: Record<string, string[]>;
  routes: Route[];
}

export interface Route {
  /** IPv4 CIDR, e.g. `10.0.0.0/8`. */
  dest: string;
  dev: string;
}

export const CNI_CONF_EXTENSIONS = ['.conf', '.conflist', '.json'];

export function evaluateCni(f: CniFacts): CheckResult[] {
  if (f.files.length === 0) {
    return [fail('cni.conf', 'CNI config', `no .conf/.conflist/.json file in ${f.confDir}`, `write a CNI network config into ${f.confDir}`)];
  }
  return f.files.map((file) => evaluateFile(f, file));
}

function evaluateFile(f: CniFacts, file: { name: string; text: string }): CheckResult {
  const id = `cni.conf:${file.name}`;
  const title = `CNI ${file.name}`;
  const where = `${f.confDir}/${file.name}`;
  let raw: any;
  try {
    raw = JSON.parse(file.text);
  } catch (err) {
    return fail(id, title, `${where} is not valid JSON: ${(err as Error).message}`, `fix or remove ${where}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(id, title, `${where} is not a JSON object`, `fix or remove ${where}`);
  const plugins: any[] = Array.isArray(raw.plugins) ? raw.plugins : raw.type ? [raw] : [];
  if (!raw.name) return fail(id, title, `${where} has no network name`, `add "name" to ${where}`);
  if (plugins.length === 0 || plugins.some((p) => typeof p?.type !== 'string' || !p.type)) {
    return fail(id, title, `${where}: a plugin without "type" (or no plugins)`, `give every plugin of ${where} a "type"`);
  }
  const types = plugins.map((p) => p.type as string);
  const missing = types.filter((t) => !f.binDirs.some((d) => f.binaries[d]?.includes(t)));
  if (missing.length > 0) {
    return fail(id, title, `plugin binary ${missing.join(', ')} not found in ${f.binDirs.join(', ')}`,
      `install the CNI plugins (apt-get install containernetworking-plugins) or add their dir to the bin dirs`);
  }
  const ownDevs = new Set(plugins.map((p) => (p.type === 'bridge' ? (p.bridge ?? 'cni0') : undefined)).filter(Boolean));
  for (const subnet of subnetsOf(plugins)) {
    const hit = f.routes.find((r) => !r.dest.endsWith('/0') && !ownDevs.has(r.dev) && cidrsOverlap(subnet, r.dest));
    if (hit) {
      return fail(id, title, `network ${raw.name}: subnet ${subnet} collides with the host route ${hit.dest} dev ${hit.dev}`,
        `pick a subnet for ${where} that no host route covers`);
    }
  }
  const subnets = subnetsOf(plugins);
  return ok(id, title, `network ${raw.name}: ${types.join(' + ')}${subnets.length ? `, subnet ${subnets.join(', ')}` : ''}`);
}

/** host-local's subnets: `ipam.subnet` and `ipam.ranges[][].subnet` (IPv4 only). */
export function subnetsOf(plugins: any[]): string[] {
  const out: string[] = [];
  for (const p of plugins) {
    const ipam = p?.ipam ?? {};
    if (typeof ipam.subnet === 'string') out.push(ipam.subnet);
    for (const set of Array.isArray(ipam.ranges) ? ipam.ranges : []) {
      for (const r of Array.isArray(set) ? set : []) if (typeof r?.subnet === 'string') out.push(r.subnet);
    }
  }
  return out.filter((s) => parseCidr(s));
}

function parseCidr(cidr: string): { base: number; bits: number } | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
  if (!m) return undefined;
  const bits = Number(m[5]);
  if (bits > 32 || m.slice(1, 5).some((o) => Number(o) > 255)) return undefined;
  const ip = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ip & mask) >>> 0, bits };
}

export function cidrsOverlap(a: string, b: string): boolean {
  const x = parseCidr(a);
  const y = parseCidr(b);
  if (!x || !y) return false;
  const bits = Math.min(x.bits, y.bits);
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((x.base & mask) >>> 0) === ((y.base & mask) >>> 0);
}

/** /proc/net/route: IPv4 routes (little-endian hex destination and mask). */
export function parseProcNetRoute(text: string): Route[] {
  const out: Route[] = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 8) continue;
    const le = (hex: string) => Buffer.from(hex.padStart(8, '0'), 'hex').reverse();
    const dest = le(f[1]!);
    const mask = le(f[7]!).readUInt32BE(0);
    const bits = mask.toString(2).replace(/0+$/, '').length;
    out.push({ dest: `${[...dest].join('.')}/${mask === 0 ? 0 : bits}`, dev: f[0]! });
  }
  return out;
}
