// Picks the /24 for a rig bridge: one that no IPv4 route of the host overlaps, from a few private
// /16 pools. Pure (routes in, subnet out) so it can be tested against any host's route table;
// cni-conf.ts feeds it `ip -4 route show table all`. Nothing is sent anywhere: the choice only
// has to keep our bridge from shadowing a network the host already reaches.

/**
 * Pools in order of preference. 10.88.0.0/16 is containerd's and podman's default pod network
 * (`cni0`/`podman0`), so a host running either skips to the next. Left out on purpose: podman's
 * later networks (10.89.0.0/16 and up), Kubernetes' service range (10.96.0.0/12), flannel's and
 * kindnet's 10.244.0.0/16, k3s' 10.42-43, docker's default bridge 172.17.0.0/16 and the demo
 * scripts' 10.233.9x.0/24.
 */
export const SUBNET_POOLS: readonly string[] = ['10.88.0.0/16', '10.188.0.0/16', '10.213.0.0/16', '172.29.0.0/16', '172.30.0.0/16'];

export interface Cidr {
  base: number;
  bits: number;
}

export interface SubnetChoice {
  subnet: string;
  gateway: string;
  /** The pool the subnet came from. */
  pool: string;
  /** Pools passed over because host routes cover every /24 in them. */
  full: string[];
}

export function parseCidr(text: string): Cidr | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const bits = match[5] === undefined ? 32 : Number(match[5]);
  if (octets.some((o) => o > 255) || bits > 32) return undefined;
  const [a, b, c, d] = octets as [number, number, number, number];
  return { base: (((a << 24) | (b << 16) | (c << 8) | d) >>> 0) & mask(bits), bits };
}

export function formatCidr(c: Cidr): string {
  return `${dotted(c.base)}/${c.bits}`;
}

/** Route destinations in `ip -4 route show table all` output (default routes left out: they say nothing). */
export function routeDestinations(ipRouteOutput: string): Cidr[] {
  // The destination is the first word, or the second after a type such as `local`/`broadcast`.
  return ipRouteOutput.split('\n')
    .map((line) => line.trim().split(/\s+/).slice(0, 2).map(parseCidr).find((r) => r !== undefined))
    .filter((r): r is Cidr => r !== undefined && r.bits > 0);
}

/** Whether `ip` (dotted IPv4) lies in `cidr` ("a.b.c.d/n"); false for anything unparsable. */
export function cidrContains(cidr: string, ip: string): boolean {
  const net = parseCidr(cidr);
  const addr = /\//.test(ip) ? undefined : parseCidr(ip);
  return !!net && !!addr && overlaps(net, addr) && addr.bits >= net.bits;
}

export function overlaps(x: Cidr, y: Cidr): boolean {
  const m = mask(Math.min(x.bits, y.bits));
  return ((x.base & m) >>> 0) === ((y.base & m) >>> 0);
}

/**
 * The first pool with a /24 no route overlaps, and a random such /24 in it (random so that rigs
 * started at once rarely pick the same one before either has made its bridge); undefined when
 * every pool is covered.
 */
export function chooseSubnet(routes: Cidr[], opts: { pools?: readonly string[]; random?: () => number } = {}): SubnetChoice | undefined {
  const random = opts.random ?? Math.random;
  const full: string[] = [];
  for (const pool of opts.pools ?? SUBNET_POOLS) {
    const p = parseCidr(pool);
    if (!p || p.bits > 24) throw new Error(`subnet pool ${pool} is not a CIDR of /24 or wider`);
    const count = 2 ** (24 - p.bits);
    const free: number[] = [];
    // The pool's first and last /24 are left alone: some tools take x.y.0.0 or x.y.255.0 for special.
    for (let i = count > 2 ? 1 : 0; i < (count > 2 ? count - 1 : count); i++) {
      const candidate = { base: (p.base + i * 256) >>> 0, bits: 24 };
      if (!routes.some((r) => overlaps(r, candidate))) free.push(candidate.base);
    }
    if (free.length === 0) {
      full.push(pool);
      continue;
    }
    const base = free[Math.min(free.length - 1, Math.floor(random() * free.length))]!;
    return { subnet: formatCidr({ base, bits: 24 }), gateway: dotted(base + 1), pool, full };
  }
  return undefined;
}

function mask(bits: number): number {
  return bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
}

function dotted(n: number): string {
  return [24, 16, 8, 0].map((s) => (n >>> s) & 255).join('.');
}
