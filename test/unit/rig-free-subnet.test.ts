// The rig's subnet choice against route tables of hosts that run other container runtimes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conflistSubnet, writeBridgeConflist } from '../rig/cni-conf.js';
import { chooseSubnet, cidrContains, overlaps, parseCidr, routeDestinations, SUBNET_POOLS } from '../rig/free-subnet.js';

const DEBIAN_VM = `default via 192.0.2.1 dev eth0
192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2
local 127.0.0.0/8 dev lo table local proto kernel scope host src 127.0.0.1
local 192.0.2.2 dev eth0 table local proto kernel scope host src 192.0.2.2
broadcast 192.0.2.255 dev eth0 table local proto kernel scope link src 192.0.2.2
`;
/** containerd's default CNI network on cni0, with one pod. */
const CONTAINERD = `${DEBIAN_VM}10.88.0.0/16 dev cni0 proto kernel scope link src 10.88.0.1
local 10.88.0.1 dev cni0 table local proto kernel scope host src 10.88.0.1
broadcast 10.88.255.255 dev cni0 table local proto kernel scope link src 10.88.0.1
`;
/** podman: podman0 on 10.88.0.0/16 and a second network on 10.89.0.0/24. */
const PODMAN = `${CONTAINERD.replaceAll('cni0', 'podman0')}10.89.0.0/24 dev podman1 proto kernel scope link src 10.89.0.1 linkdown
`;
const first = () => 0;
const inPool = (subnet: string, pool: string) => overlaps(parseCidr(subnet)!, parseCidr(pool)!);

describe('rig subnet choice', () => {
  it('reads destinations of every table, typed routes included, and leaves default routes out', () => {
    expect(routeDestinations(CONTAINERD).map((c) => `${c.base >>> 24}.${(c.base >>> 16) & 255}/${c.bits}`)).toEqual([
      '192.0/24', '127.0/8', '192.0/32', '192.0/32', '10.88/16', '10.88/32', '10.88/32',
    ]);
    expect(routeDestinations('0.0.0.0/0 via 10.1.1.1 dev x\nunreachable 10.0.0.0/8\n')).toEqual([{ base: 0x0a000000, bits: 8 }]);
  });

  it('takes 10.88.x.0/24 where nothing routes there', () => {
    const choice = chooseSubnet(routeDestinations(DEBIAN_VM), { random: first })!;
    expect(choice).toEqual({ subnet: '10.88.1.0/24', gateway: '10.88.1.1', pool: '10.88.0.0/16', full: [] });
  });

  it.each([
    ['containerd (cni0 on 10.88.0.0/16)', CONTAINERD],
    ['podman (podman0 on 10.88.0.0/16, podman1 on 10.89.0.0/24)', PODMAN],
  ])('moves to the next pool on a host running %s', (_what, table) => {
    const routes = routeDestinations(table);
    for (const random of [first, () => 0.5, () => 0.999999]) {
      const choice = chooseSubnet(routes, { random })!;
      expect(choice.pool).toBe('10.188.0.0/16');
      expect(choice.full).toEqual(['10.88.0.0/16']);
      expect(inPool(choice.subnet, '10.188.0.0/16')).toBe(true);
      expect(routes.some((r) => overlaps(r, parseCidr(choice.subnet)!))).toBe(false);
    }
  });

  it('avoids the /24s host routes touch inside a pool, however small the route', () => {
    const table = `${CONTAINERD}10.188.0.0/17 dev vpn0\nlocal 10.188.200.7 dev x table local\n10.188.130.64/26 via 192.0.2.9 dev eth0\n`;
    const seen = new Set<string>();
    const routes = routeDestinations(table);
    for (let i = 0; i < 100; i++) seen.add(chooseSubnet(routes, { random: () => i / 100 })!.subnet);
    const thirds = [...seen].map((s) => Number(s.split('.')[2]));
    expect(Math.min(...thirds)).toBeGreaterThanOrEqual(128);
    expect(thirds).not.toContain(200);
    expect(thirds).not.toContain(130);
    expect(thirds).not.toContain(255);
  });

  it('takes 172.29.0.0/16 when a VPN routes all of 10.0.0.0/8', () => {
    const choice = chooseSubnet(routeDestinations(`${DEBIAN_VM}10.0.0.0/8 dev tun0 scope link\n`), { random: first })!;
    expect(choice).toMatchObject({ subnet: '172.29.1.0/24', pool: '172.29.0.0/16', full: ['10.88.0.0/16', '10.188.0.0/16', '10.213.0.0/16'] });
  });

  it('gives up when every pool is routed, and the rig says which pools it tried', async () => {
    const table = `${DEBIAN_VM}10.0.0.0/8 dev tun0\n172.16.0.0/12 dev tun1\n`;
    expect(chooseSubnet(routeDestinations(table))).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'ist-sub-'));
    try {
      await expect(writeBridgeConflist(dir, join(dir, 'leases'), { routeTable: async () => table, report: () => undefined }))
        .rejects.toThrow(`no /24 free of host routes in ${SUBNET_POOLS.join(', ')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes the chosen subnet into the conflist and reports the pool it came from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ist-sub-'));
    try {
      const lines: string[] = [];
      const net = await writeBridgeConflist(dir, join(dir, 'leases'), { routeTable: async () => CONTAINERD, report: (l) => lines.push(l) });
      expect(inPool(net.subnet, '10.188.0.0/16')).toBe(true);
      const range = JSON.parse(readFileSync(net.confPath, 'utf8')).plugins[0].ipam.ranges[0][0];
      expect(range).toEqual({ subnet: net.subnet, gateway: net.gateway });
      expect(lines).toEqual([`[rig] network ${net.name}: ${net.subnet} from 10.188.0.0/16 (host routes cover 10.88.0.0/16)`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('pod IPs against the rig subnet (tests never assume a pool)', () => {
  it.each([
    ['10.188.7.0/24', '10.188.7.42', true],
    ['10.188.7.0/24', '10.188.8.42', false],
    ['10.88.3.0/24', '10.88.3.1', true],
    ['10.88.3.0/24', '10.88.0.5', false],
    ['172.29.0.0/16', '172.29.200.1', true],
    ['10.188.7.0/24', '10.188.7.0/16', false],
    ['10.188.7.0/24', '', false],
    ['garbage', '10.188.7.1', false],
  ])('%s holds %s: %s', (cidr, ip, inside) => {
    expect(cidrContains(cidr, ip)).toBe(inside);
  });

  it('reads the subnet back from the conflist the rig wrote', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ist-sub-'));
    try {
      const net = await writeBridgeConflist(dir, join(dir, 'leases'), { routeTable: async () => '', report: () => undefined });
      expect(await conflistSubnet(dir)).toBe(net.subnet);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
