import { randomBytes } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chooseSubnet, routeDestinations, SUBNET_POOLS } from './free-subnet.js';
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

/** The host's IPv4 routes, all tables, as `ip -4 route show table all` prints them. */
export async function hostRouteTable(): Promise<string> {
  return (await run('ip', ['-4', 'route', 'show', 'table', 'all'], { check: false })).stdout;
}

export interface BridgeConflistOptions {
  /** Where the route table comes from (tests of the choice); the host's by default. */
  routeTable?: () => Promise<string>;
  /** Called with the line saying which subnet was taken and why; stderr by default. */
  report?: (line: string) => void;
}

/**
 * Writes a bridge + portmap conflist with a unique name, bridge and a /24 subnet no host route
 * overlaps (free-subnet.ts) into `confDir`; host-local keeps its leases in `leaseDir`.
 */
export async function writeBridgeConflist(confDir: string, leaseDir: string, opts: BridgeConflistOptions = {}): Promise<CniNetwork> {
  const suffix = randomBytes(3).toString('hex');
  const name = `ist-net-${suffix}`;
  const bridge = `istbr${suffix}`;
  const routes = routeDestinations(await (opts.routeTable ?? hostRouteTable)());
  const choice = chooseSubnet(routes);
  if (!choice) throw new Error(`no /24 free of host routes in ${SUBNET_POOLS.join(', ')}`);
  const { subnet, gateway } = choice;
  const why = choice.full.length > 0 ? ` (host routes cover ${choice.full.join(', ')})` : '';
  (opts.report ?? ((line) => process.stderr.write(`${line}\n`)))(`[rig] network ${name}: ${subnet} from ${choice.pool}${why}`);
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

/**
 * The subnet of the one bridge conflist in `confDir` (the rig's ISULATS_TEST_CNI_CONF_DIR): tests
 * check pod IPs against it, never against a fixed pool (10.88.0.0/16 is taken on a containerd node).
 */
export async function conflistSubnet(confDir: string): Promise<string> {
  const files = (await readdir(confDir)).filter((f) => f.endsWith('.conflist'));
  if (files.length !== 1) throw new Error(`expected one conflist in ${confDir}, found ${files.length}`);
  const conf = JSON.parse(await readFile(join(confDir, files[0]!), 'utf8')) as { plugins?: Array<{ ipam?: { ranges?: Array<Array<{ subnet?: string }>> } }> };
  const subnet = conf.plugins?.[0]?.ipam?.ranges?.[0]?.[0]?.subnet;
  if (!subnet) throw new Error(`no ipam subnet in ${join(confDir, files[0]!)}`);
  return subnet;
}
