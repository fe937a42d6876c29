// The rig on a host that runs containerd or podman: their default pod network is 10.88.0.0/16 on
// a bridge (cni0, podman0). A bridge of ours with that prefix stands in for it (this kernel has no
// dummy links), only for as long as the rig takes to pick its subnet, since other rigs on this host
// read the same route table; it is removed afterwards. Nothing is sent through it.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBridgeConflist } from '../rig/cni-conf.js';
import { overlaps, parseCidr } from '../rig/free-subnet.js';
import { linkExists } from '../rig/host-cleanup.js';
import { run } from '../rig/proc.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { join } from 'node:path';

describe('rig network on a host with 10.88.0.0/16 taken', () => {
  const link = `istcn${randomBytes(3).toString('hex')}`;
  let dir: string | undefined;

  afterAll(async () => {
    await run('ip', ['link', 'del', link], { check: false });
    if (dir) await removeTempDir(dir);
  });

  it('picks a /24 outside it and says where from', async () => {
    dir = await makeTempDir('ist-sub-');
    const lines: string[] = [];
    let taken: string;
    await run('ip', ['link', 'add', link, 'type', 'bridge']);
    try {
      await run('ip', ['addr', 'add', '10.88.0.1/16', 'dev', link]);
      await run('ip', ['link', 'set', link, 'up']);
      taken = (await run('ip', ['-4', 'route', 'show', 'dev', link])).stdout;
      const net = await writeBridgeConflist(dir, join(dir, 'leases'), { report: (l) => lines.push(l) });
      expect(overlaps(parseCidr(net.subnet)!, parseCidr('10.88.0.0/16')!)).toBe(false);
    } finally {
      await run('ip', ['link', 'del', link], { check: false });
    }
    expect(taken).toMatch(/^10\.88\.0\.0\/16 /m);
    expect(lines[0]).toMatch(/^\[rig\] network ist-net-\w+: \d+\.\d+\.\d+\.0\/24 from \S+ \(host routes cover 10\.88\.0\.0\/16\)$/);
    expect(await linkExists(link)).toBe(false);
  });
});
