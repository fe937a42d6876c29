// `debug` and `top` on the embedded engine (no endpoint): the same CRI calls
// in-process, stdin through the in-process attach. Temp root, state and CNI
// network, all removed at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { populateBusyboxRootfs } from '../rig/busybox-rootfs.js';
import { writeBridgeConflist, type CniNetwork } from '../rig/cni-conf.js';
import { deleteLink, unmountUnder } from '../rig/host-cleanup.js';

let dir: string;
let net: CniNetwork;
let base: string[];
let target = '';
const IMAGE = 'local/busybox:debug';
const env = () => ({ ISULATS_CNI_CONF_DIR: join(dir, 'cni'), ISULATS_DAEMON_CONFIG: '', CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'no-daemon.sock') });
const cli = (args: string[], input?: string): Promise<CliResult> => runCli([...base, ...args], { env: env(), timeoutMs: 90_000, input });

async function ok(args: string[], input?: string): Promise<string> {
  const r = await cli(args, input);
  if (r.code !== 0 || r.stderr) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  dir = await makeTempDir('ist-embd-');
  await mkdir(join(dir, 'cni'), { recursive: true });
  net = await writeBridgeConflist(join(dir, 'cni'), join(dir, 'leases'));
  base = ['--root', join(dir, 'root'), '--state', join(dir, 'state')];
  const rootfs = join(dir, 'rootfs');
  await populateBusyboxRootfs(rootfs);
  await ok(['import', '--cmd', 'sh', rootfs, IMAGE]);
  target = (await ok(['run', '-d', '--name', `web-${process.pid}`, IMAGE, 'sh', '-c', 'exec sleep 3600'])).trim();
}, 180_000);

afterAll(async () => {
  if (!dir) return;
  await cli(['rmp', '-a', '-f']).catch(() => undefined);
  await unmountUnder(dir);
  await deleteLink(net?.bridge ?? '').catch(() => undefined);
  await removeTempDir(dir);
}, 180_000);

describe('embedded engine', () => {
  it("debug joins the target's PID namespace, passes stdin, and removes itself", async () => {
    const { info } = JSON.parse(await ok(['inspect', target]));
    const out = await ok(['debug', target.slice(0, 12), '--image', IMAGE, '--no-pull', '--', 'sh', '-c', 'read x; echo "in:$x"; readlink /proc/self/ns/pid; ps -o args | grep -c "^sleep 3600"'], 'piped\n');
    const [line1, ns, sleepers] = out.trimEnd().split('\n');
    expect(line1).toBe('in:piped');
    expect(ns).toBe(readlinkSync(`/proc/${info.pid}/ns/pid`));
    expect(sleepers).toBe('1');
    expect((await ok(['ps', '-a', '-q', '--label', 'io.isulats.debug=true'])).trim()).toBe('');
  });

  it('top prints plain tables from the in-process stats', async () => {
    const out = await ok(['top', '-n', '2', '--interval', '500ms']);
    const tables = out.trimEnd().split(/\n(?=NAMESPACE)/);
    expect(tables).toHaveLength(2);
    expect(tables[1]).toMatch(new RegExp(`^default\\s+web-${process.pid}\\s+web-${process.pid}\\s+${target.slice(0, 13)}\\s+\\d+\\.\\d\\d\\s+\\S+$`, 'm'));
  });
});
