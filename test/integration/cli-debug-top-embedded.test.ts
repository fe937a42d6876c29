// `debug` and `top` on the embedded engine (no endpoint): the same CRI calls
// in-process, stdin through the in-process attach. Temp root, state and CNI
// network, all removed at the end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, type CliResult } from '../rig/cli.js';
import type { CniNetwork } from '../rig/cni-conf.js';
import { embeddedEnv, prepareEmbeddedEngine, removeEmbeddedEngine } from '../rig/embedded-engine.js';

let dir: string;
let net: CniNetwork;
let base: string[];
let target = '';
const IMAGE = 'local/busybox:debug';
const env = () => embeddedEnv(dir);
const cli = (args: string[], input?: string): Promise<CliResult> => runCli([...base, ...args], { env: env(), timeoutMs: 90_000, input });

async function ok(args: string[], input?: string): Promise<string> {
  const r = await cli(args, input);
  if (r.code !== 0 || r.stderr) throw new Error(`isulats ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  let rootfs: string;
  ({ dir, net, base, rootfs } = await prepareEmbeddedEngine('ist-embd-'));
  await ok(['import', '--cmd', 'sh', rootfs, IMAGE]);
  target = (await ok(['run', '-d', '--name', `web-${process.pid}`, IMAGE, 'sh', '-c', 'exec sleep 3600'])).trim();
}, 180_000);

afterAll(() => removeEmbeddedEngine({ dir, net }, () => cli(['rmp', '-a', '-f'])), 180_000);

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
