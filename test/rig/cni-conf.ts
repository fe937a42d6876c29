import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from './proc.js';

export interface CniNetwork {
  /** Unique network name (also the host-local lease dir name). */
  name: string;
  /** Unique bridge device, at most 15 characters. */
  bridge: string;
  subnet: string;
  gateway: string;
  /** host-local lease dir: kept inside our temp dir, never under /var/lib/cni. */
  leaseDir: string;
  confPath: string;
}

/** Debian's containernetworking-plugins. */
export const CNI_BIN_DIR = '/usr/lib/cni';

/**
 * Writes a bridge + portmap conflist with a unique name, bridge and 10.88.<n>.0/24 subnet
 * into `confDir`; host-local keeps its leases in `leaseDir`.
 */
export async function writeBridgeConflist(confDir: string, leaseDir: string): Promise<CniNetwork> {
  const suffix = randomBytes(3).toString('hex');
  const name = `ist-net-${suffix}`;
  const bridge = `istbr${suffix}`;
  const octet = await unusedOctet();
  const subnet = `10.88.${octet}.0/24`;
  const gateway = `10.88.${octet}.1`;
  const conflist = {
    cniVersion: '1.0.0',
    name,
    plugins: [
      {
        type: 'bridge',
        bridge,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          dataDir: leaseDir,
          ranges: [[{ subnet, gateway }]],
          routes: [{ dst: '0.0.0.0/0' }],
        },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  };
  const confPath = join(confDir, `10-${name}.conflist`);
  await writeFile(confPath, `${JSON.stringify(conflist, null, 2)}\n`);
  return { name, bridge, subnet, gateway, leaseDir, confPath };
}

/** A third octet whose 10.88.<n>.0/24 overlaps no IPv4 route on the host (bounded random tries). */
async function unusedOctet(): Promise<number> {
  const { stdout } = await run('ip', ['-4', 'route', 'show', 'table', 'all'], { check: false });
  // The destination is the first word, or the second after a type such as `local`/`broadcast`.
  const routes = stdout.split('\n')
    .map((line) => line.split(' ').slice(0, 2).map(parseCidr).find((r) => r !== undefined))
    .filter((r): r is Cidr => r !== undefined);
  for (let attempt = 0; attempt < 50; attempt++) {
    const octet = 2 + (randomBytes(1)[0]! % 250);
    const ours = parseCidr(`10.88.${octet}.0/24`)!;
    if (!routes.some((r) => overlaps(r, ours))) return octet;
  }
  throw new Error('no unused 10.88.x.0/24 subnet found');
}

interface Cidr {
  base: number;
  bits: number;
}

function parseCidr(text: string): Cidr | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) return undefined;
  const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
  const bits = match[5] === undefined ? 32 : Number(match[5]);
  return { base: (((a << 24) | (b << 16) | (c << 8) | d) >>> 0), bits };
}

function overlaps(x: Cidr, y: Cidr): boolean {
  const bits = Math.min(x.bits, y.bits);
  if (bits === 0) return false; // a default route overlaps everything and says nothing
  const mask = (0xffffffff << (32 - bits)) >>> 0;
  return ((x.base & mask) >>> 0) === ((y.base & mask) >>> 0);
}
