// `isulats debug` against real runtimes: the rig's containerd and an
// `isulats daemon`. The target runs the rig's pause image (no shell, one
// static binary); a busybox debug container beside it sees its processes,
// shares its network and PID namespaces and reads its root file system
// through /proc/1/root. Also the TTY path in a real terminal (tmux), and bad
// input. Each peer's pod is removed at the end with every container in it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readlinkSync } from 'node:fs';
import { REPO_ROOT, runCli, type CliResult } from '../rig/cli.js';
import { writeContainerConfig, writePodConfig } from '../rig/pod-configs.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { startTmux } from '../rig/tmux.js';
import { waitFor } from '../rig/wait.js';

interface Peer {
  name: string;
  endpoint(): Promise<string>;
  stop(): Promise<void>;
}

let daemon: IsulatsDaemon | undefined;
const peers: Peer[] = [
  {
    name: 'containerd',
    endpoint: async () => rigEnv().ISULATS_TEST_CONTAINERD,
    stop: async () => undefined,
  },
  {
    name: 'isulats daemon',
    endpoint: async () => {
      daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE });
      return daemon.endpoint;
    },
    stop: async () => {
      await daemon?.cleanup();
    },
  },
];
const containerdRun = process.env.ISULATS_TEST_CRI_PEER !== 'isulats';

describe.each(peers.filter((p) => containerdRun || p.name !== 'containerd'))('debug against $name', (peer) => {
  let endpoint: string;
  let dir: string;
  let podId = '';
  let target = '';
  let stopped = '';
  let busybox: string;
  const podName = `dbg-web-${process.pid}-7d9c5b6f4-x2k8q`;

  const cli = (args: string[], input?: string): Promise<CliResult> =>
    runCli(['-r', endpoint, '--timeout', '30s', ...args], { input, timeoutMs: 120_000 });

  async function ok(args: string[]): Promise<string> {
    const r = await cli(args);
    expect(r.stderr, `isulats ${args.join(' ')}: ${r.stderr}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  }

  async function failsInOneLine(args: string[], pattern: RegExp): Promise<void> {
    const r = await cli(args);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  }

  const debugContainers = async () => (await ok(['ps', '-a', '-q', '--label', 'io.isulats.debug=true'])).trim();

  beforeAll(async () => {
    const env = rigEnv();
    busybox = env.ISULATS_TEST_BUSYBOX;
    endpoint = await peer.endpoint();
    dir = await makeTempDir('ist-dbg-');
    const podConfig = await writePodConfig(dir, {
      name: podName,
      namespace: `dbg-${process.pid}`,
      logDirectory: join(dir, 'logs'),
      labels: { app: 'dbg-web', 'io.kubernetes.pod.namespace': `dbg-${process.pid}` },
    });
    podId = (await ok(['runp', podConfig])).trim();
    // A PID namespace of its own, as kubelet asks for each container of a pod without shareProcessNamespace.
    const ownPidNs = { linux: { security_context: { namespace_options: { network: 0, pid: 1, ipc: 0 } } } };
    const pauseCfg = await writeContainerConfig(dir, { name: 'app', image: env.ISULATS_TEST_PAUSE, logPath: 'app/0.log', extra: ownPidNs });
    target = (await ok(['create', '--with-pull', podId, pauseCfg, podConfig])).trim();
    await ok(['start', target]);
    const idleCfg = await writeContainerConfig(dir, { name: 'idle', image: env.ISULATS_TEST_PAUSE, logPath: 'idle/0.log' });
    stopped = (await ok(['create', podId, idleCfg, podConfig])).trim();
    await ok(['pull', busybox]);
  }, 180_000);

  afterAll(async () => {
    if (podId) await cli(['rmp', '-f', podId]);
    await peer.stop();
    if (dir) await removeTempDir(dir);
  }, 120_000);

  it("sees the shell-less target's processes, namespaces and root file system, then removes itself", async () => {
    const script = [
      'ps',
      'test -x /proc/1/root/pause && echo TARGET-ROOT-HAS-PAUSE',
      'test -e /pause || echo OWN-ROOT-IS-BUSYBOX',
      '[ "$(readlink /proc/self/ns/pid)" = "$(readlink /proc/1/ns/pid)" ] && echo SAME-PID-NS',
      '[ "$(readlink /proc/self/ns/net)" = "$(readlink /proc/1/ns/net)" ] && echo SAME-NET-NS',
      'exit 3',
    ].join('; ');
    const r = await cli(['debug', target.slice(0, 12), '--image', busybox, '--', 'sh', '-c', script]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^\s*1 \S+\s.*\/pause$/m);
    for (const word of ['TARGET-ROOT-HAS-PAUSE', 'OWN-ROOT-IS-BUSYBOX', 'SAME-PID-NS', 'SAME-NET-NS']) expect(r.stdout).toContain(word);
    expect(await debugContainers()).toBe('');
  });

  it('finds the target by pod-name/container-name and passes piped stdin through', async () => {
    const r = await cli(['debug', `${podName}/app`, '--image', busybox, '--', 'sh', '-c', 'read line; echo "got:$line"; ps -o comm'], 'hello\n');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('got:hello');
    expect(r.stdout).toMatch(/^pause$/m);
  });

  it("takes the pod's PID namespace with a pod target or --no-target-pid, the target's by default", async () => {
    const { pid } = JSON.parse(await ok(['inspect', target])).info;
    expect(pid).toBeGreaterThan(1);
    const targetPidNs = readlinkSync(`/proc/${pid}/ns/pid`);
    const pidNsOf = async (args: string[]) => {
      const r = await cli(['debug', ...args, '--image', busybox, '--', 'readlink', '/proc/self/ns/pid']);
      expect(r.stderr).toBe('');
      return r.stdout.trim();
    };
    expect(await pidNsOf([target])).toBe(targetPidNs);
    expect(await pidNsOf([podId])).toMatch(/^pid:\[\d+\]$/);
    expect(await pidNsOf([podId])).not.toBe(targetPidNs);
    expect(await pidNsOf(['--no-target-pid', target])).not.toBe(targetPidNs);
    expect(await pidNsOf(['--target-pid', podId])).toBe(targetPidNs);
  });

  it('keeps the debug container with --keep and prints its ID', async () => {
    const r = await cli(['debug', '--keep', target, '--image', busybox, '--', 'true']);
    expect(r.code, r.stderr).toBe(0);
    const kept = /^debug container kept: ([0-9a-f]{64})$/m.exec(r.stderr)?.[1];
    expect(kept, r.stderr).toBeDefined();
    expect(await debugContainers()).toBe(kept);
    await ok(['rm', kept!]);
  });

  it('runs an interactive shell in a real terminal (TTY) and removes the container when it exits', async () => {
    const cmd = `cd ${REPO_ROOT} && node bin/isulats -r ${endpoint} --timeout 30s debug ${target} --image ${busybox}; echo "EXITED:$?"; sleep 60`;
    const term = await startTmux(cmd, { width: 120, height: 40 });
    try {
      await term.waitForScreen(/If you don't see a command prompt/);
      await term.send('-l', 'tty; cat /proc/1/comm');
      await term.send('Enter');
      await term.waitForScreen(/^\/dev\/pts\/\d+\npause$/m);
      await term.send('-l', 'exit 5');
      await term.send('Enter');
      await term.waitForScreen(/EXITED:5/);
    } finally {
      await term.close();
    }
    expect(await debugContainers()).toBe('');
  });

  it('removes the debug container when its terminal goes away', async () => {
    const cmd = `cd ${REPO_ROOT} && exec node bin/isulats -r ${endpoint} --timeout 30s debug ${target} --image ${busybox}`;
    const term = await startTmux(cmd, { width: 100, height: 30 });
    try {
      await term.waitForScreen(/If you don't see a command prompt/);
      await waitFor(async () => (await debugContainers()) !== '', { timeoutMs: 10_000, what: 'the debug container' });
    } finally {
      await term.close(); // the terminal closes: SIGHUP
    }
    await waitFor(async () => (await debugContainers()) === '', { timeoutMs: 30_000, what: 'the debug container to be removed' });
  });

  it('refuses a target that is not running, in one line', async () => {
    await failsInOneLine(['debug', stopped, '--image', busybox, '--', 'true'], /target container idle \([0-9a-f]{13}\) is not running \(created\)/);
  });

  it('refuses an unknown target and an absent image with --no-pull, in one line each', async () => {
    await failsInOneLine(['debug', `${podName}/nope`, '--', 'true'], /pod ".*" has no container named "nope"/);
    await failsInOneLine(['debug', 'ffffffffff', '--', 'true'], /no container or pod matches "ffffffffff"/);
    await failsInOneLine(['debug', target, '--no-pull', '--image', `${rigEnv().ISULATS_TEST_REGISTRY}/absent/debug:1`, '--', 'true'], /image .*absent\/debug:1 is not present and --no-pull was given/);
    expect(await debugContainers()).toBe('');
  });
});
