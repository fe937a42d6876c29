import { existsSync, readFileSync } from 'node:fs';
import { lstat, readdir, readFile, rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainTrash } from '../../src/runtime/store/trash.js';
import { cidrContains } from '../rig/free-subnet.js';
import { run } from '../rig/proc.js';
import { waitFor } from '../rig/wait.js';
import { anyAlive, BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

/** A pod whose containers each have their own PID namespace: no infra container, its namespaces pinned (kubelet's default). */
const noInfraPod = (name: string) => podConfig(name, { linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } } });

const CRI_LOG_LINE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d+(Z|[+-]\d{2}:\d{2}) (stdout|stderr) [FP] /;

describe('runtime: pods and containers on runc + conmon + CNI', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('runs a pod and a container, execs, logs in CRI format, and stops and removes idempotently', async () => {
    const e = fx.engine;
    const pod = podConfig('lifecycle', { logDirectory: join(fx.dir, 'logs', 'lifecycle') });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const podStatus = (await e.podSandboxStatus({ podSandboxId })).status!;
    expect(podStatus.state).toBe('SANDBOX_READY');
    expect(podStatus.metadata?.uid).toBe('uid-lifecycle');
    expect(cidrContains(fx.net.subnet, podStatus.network?.ip ?? ''), `pod IP ${podStatus.network?.ip} in ${fx.net.subnet}`).toBe(true);
    const netns = join(fx.options.state, 'netns', podSandboxId);
    expect(existsSync(netns)).toBe(true);

    const { containerId } = await e.createContainer({
      podSandboxId,
      config: {
        metadata: { name: 'hello' },
        image: { image: BUSYBOX_REF },
        command: ['sh', '-c', 'echo hello; echo oops >&2; sleep 3600'],
        logPath: 'hello/0.log',
      },
      sandboxConfig: pod,
    });
    expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_CREATED');
    await e.startContainer({ containerId });
    const status = (await e.containerStatus({ containerId })).status!;
    expect(status.state).toBe('CONTAINER_RUNNING');
    expect(status.logPath).toBe(join(fx.dir, 'logs', 'lifecycle', 'hello/0.log'));
    expect(status.imageRef).not.toBe('');
    expect(BigInt(status.startedAt)).toBeGreaterThan(BigInt(status.createdAt));

    const hostname = await e.execSync({ containerId, cmd: ['hostname'], timeout: 10 });
    expect(hostname.exitCode).toBe(0);
    expect(hostname.stdout.toString().trim()).toBe('lifecycle');
    const failing = await e.execSync({ containerId, cmd: ['sh', '-c', 'echo bad >&2; exit 3'] });
    expect(failing.exitCode).toBe(3);
    expect(failing.stderr.toString()).toBe('bad\n');
    // A process that never ran is an error of the call (as from containerd); one exiting 255 is not.
    await expect(e.execSync({ containerId, cmd: ['no-such-binary'] })).rejects.toThrow(/failed to exec in container .*"no-such-binary": executable file not found/);
    await expect(e.execSync({ containerId, cmd: ['/etc/passwd'] })).rejects.toThrow(/permission denied/);
    expect((await e.execSync({ containerId, cmd: ['sh', '-c', 'echo x >&2; exit 255'] })).exitCode).toBe(255);
    const big = await e.execSync({ containerId, cmd: ['head', '-c', '20000000', '/dev/zero'] });
    expect(big.stdout.length).toBe(16 * 1024 * 1024);
    const ip = await e.execSync({ containerId, cmd: ['ip', '-4', 'addr', 'show', 'eth0'] });
    expect(ip.stdout.toString()).toContain(podStatus.network!.ip);

    const log = await waitFor(
      async () => {
        const text = await readFile(status.logPath, 'utf8').catch(() => '');
        return text.includes('hello') && text.includes('oops') ? text : undefined;
      },
      { timeoutMs: 10_000, what: 'container log lines' },
    );
    const lines = log.trim().split('\n');
    for (const line of lines) expect(line).toMatch(CRI_LOG_LINE);
    expect(lines.some((l) => / stdout F hello$/.test(l))).toBe(true);
    expect(lines.some((l) => / stderr F oops$/.test(l))).toBe(true);

    const pids = [status ? JSON.parse((await e.containerStatus({ containerId, verbose: true })).info.info!).pid : 0, JSON.parse((await e.podSandboxStatus({ podSandboxId, verbose: true })).info.info!).pid];
    const stats = (await e.containerStats({ containerId })).stats!;
    expect(BigInt(stats.memory!.workingSetBytes!.value)).toBeGreaterThan(0n);

    await e.stopContainer({ containerId, timeout: 2 });
    const stopped = (await e.containerStatus({ containerId })).status!;
    expect(stopped.state).toBe('CONTAINER_EXITED');
    expect(stopped.exitCode).toBe(143);
    expect(stopped.reason).toBe('Error');
    await e.stopContainer({ containerId, timeout: 2 });

    await e.stopPodSandbox({ podSandboxId });
    // A completed stop released the pause container and the network: repeating the stop, and the
    // removal after it, start no runc and no CNI plugin again.
    const ranAfterStop: string[] = [];
    const record = (cmd: string, args: readonly string[]) => { ranAfterStop.push([cmd, ...args].join(' ')); };
    let unhook = e.ctx.runner.addHook(record);
    await e.stopPodSandbox({ podSandboxId });
    unhook();
    expect((await e.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
    expect(existsSync(netns)).toBe(false);
    expect(await leases(fx.net)).toEqual([]);

    await e.removeContainer({ containerId });
    await e.removeContainer({ containerId });
    unhook = e.ctx.runner.addHook(record);
    await e.removePodSandbox({ podSandboxId });
    await e.removePodSandbox({ podSandboxId });
    unhook();
    expect(ranAfterStop).toEqual([]);
    // The deletions queued after the answers run first: a recursive scan racing them meets a dir
    // that vanishes under it (ENOENT).
    await drainTrash();
    // Their lock files went with them (the lock directories do not grow with every pod ever run).
    const lockFiles = (await readdir(fx.dir, { recursive: true })).filter((f) => f.endsWith('.lock'));
    expect(lockFiles.filter((f) => f.includes(podSandboxId) || f.includes(containerId))).toEqual([]);
    // Nothing named after either is left under root or state (conmon's socket link <state>/sk/<id> included),
    // once the deletions queued after the answers (the exit file) have run, as engine.close() awaits them.
    const leftovers = [];
    for (const dir of [fx.options.root, fx.options.state]) {
      for (const path of await readdir(dir, { recursive: true })) {
        if ([containerId, podSandboxId].some((id) => path.includes(id.slice(0, 12)))) leftovers.push(join(dir, path));
      }
    }
    expect(leftovers).toEqual([]);
    expect((await e.listPodSandbox({})).items.find((p) => p.id === podSandboxId)).toBeUndefined();
    expect((await e.listContainers({})).containers).toEqual([]);
    expect(await mountsUnder(fx.dir)).toEqual([]);
    expect(await anyAlive(pids)).toBe(false);
  });

  it('removes conmon socket links whose container is gone when an engine opens, and keeps live ones', async () => {
    const pod = podConfig('sk-sweep');
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: pod });
    const { containerId } = await fx.engine.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'live' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await fx.engine.startContainer({ containerId });
    // As an engine without the fix left them: links to bundles and exec sessions that were removed.
    const sk = join(fx.options.state, 'sk');
    const goneId = 'f'.repeat(64);
    await symlink(join(fx.options.root, 'containers', goneId, 'bundle'), join(sk, goneId));
    await symlink(join(fx.options.state, 'exec', 'xgone12'), join(sk, `${goneId.slice(0, 12)}-gone12`));
    const reopened = await fx.reopen();
    expect((await readdir(sk)).sort()).toEqual([containerId]);
    const attachable = await lstat(join(sk, containerId, 'attach'));
    expect(attachable.isSocket()).toBe(true);
    await reopened.removePodSandbox({ podSandboxId });
    expect(await readdir(sk)).toEqual([]);
  });

  it('keeps a resource update of a created container for its start (runc runs only then)', async () => {
    const e = fx.engine;
    const pod = podConfig('update-created');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'late' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { resources: { memoryLimitInBytes: 64 * 1024 * 1024 } } },
    });
    await e.updateContainerResources({ containerId, linux: { memoryLimitInBytes: 96 * 1024 * 1024, cpuQuota: 30_000, cpuPeriod: 100_000 } });
    await e.startContainer({ containerId });
    const { cgroupsPath } = (await e.ctx.containers.get(containerId))!;
    const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
    const cgroupFile = (controller: string, file: string) => readFile(join('/sys/fs/cgroup', v2 ? '' : controller, cgroupsPath, file), 'utf8').then((t) => t.trim());
    if (v2) {
      expect(await cgroupFile('', 'memory.max')).toBe(String(96 * 1024 * 1024));
      expect(await cgroupFile('', 'cpu.max')).toBe('30000 100000');
    } else {
      expect(await cgroupFile('memory', 'memory.limit_in_bytes')).toBe(String(96 * 1024 * 1024));
      expect(await cgroupFile('cpu', 'cpu.cfs_quota_us')).toBe('30000');
    }
    await e.removePodSandbox({ podSandboxId });
  });

  it('applies the pod DNS config, hostname and sysctls and the container security context', async () => {
    const e = fx.engine;
    const pod = podConfig('secure', {
      hostname: 'secure-host',
      dnsConfig: { servers: ['10.0.0.10'], searches: ['svc.cluster.local'], options: ['ndots:5'] },
      linux: { sysctls: { 'net.ipv4.ip_unprivileged_port_start': '80' } },
    });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: {
        metadata: { name: 'locked' },
        image: { image: BUSYBOX_REF },
        command: ['sleep', '3600'],
        envs: [{ key: 'GREETING', value: 'hi' }],
        linux: { securityContext: { runAsUser: { value: 1000 }, readonlyRootfs: true, seccomp: { profileType: 'RuntimeDefault' }, supplementalGroups: [44] } },
      },
    });
    await e.startContainer({ containerId });
    const sh = async (script: string) => {
      const r = await e.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 10 });
      return { code: r.exitCode, out: r.stdout.toString().trim(), err: r.stderr.toString() };
    };
    expect((await sh('cat /etc/resolv.conf')).out.split('\n')).toEqual(['search svc.cluster.local', 'nameserver 10.0.0.10', 'options ndots:5']);
    expect((await sh('hostname')).out).toBe('secure-host');
    expect((await sh('cat /proc/sys/net/ipv4/ip_unprivileged_port_start')).out).toBe('80');
    expect((await sh('id -u; id -G')).out).toBe('1000\n1000 44');
    expect((await sh('echo $GREETING')).out).toBe('hi');
    expect((await sh('touch /newfile')).code).not.toBe(0);
    expect((await sh('grep Seccomp: /proc/self/status')).out).toMatch(/Seccomp:\s+2/);
    expect((await sh('grep secure-host /etc/hosts')).out).toContain((await e.podSandboxStatus({ podSandboxId })).status!.network!.ip);
    await e.removePodSandbox({ podSandboxId });
  });

  it('reopens the log file after it was rotated away', async () => {
    const e = fx.engine;
    const pod = podConfig('rotate', { logDirectory: join(fx.dir, 'logs', 'rotate') });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'ticker' }, image: { image: BUSYBOX_REF }, command: ['sh', '-c', 'while true; do echo tick; sleep 0.1; done'], logPath: 'ticker.log' },
    });
    await e.startContainer({ containerId });
    const logPath = join(fx.dir, 'logs', 'rotate', 'ticker.log');
    await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')).includes('tick'), { timeoutMs: 10_000, what: 'first log lines' });
    await rename(logPath, `${logPath}.1`);
    await e.reopenContainerLog({ containerId });
    const fresh = await waitFor(async () => {
      const text = await readFile(logPath, 'utf8').catch(() => '');
      return text.includes('tick') ? text : undefined;
    }, { timeoutMs: 10_000, what: 'lines in the reopened log' });
    expect(fresh.split('\n')[0]).toMatch(CRI_LOG_LINE);
    await e.removePodSandbox({ podSandboxId });
    await expect(e.reopenContainerLog({ containerId })).rejects.toThrow(/not found/);
  });

  it('loses no line and duplicates none when the log is reopened 5 times while the container writes fast', async () => {
    const e = fx.engine;
    const LINES = 100_000;
    const pod = podConfig('pressure', { logDirectory: join(fx.dir, 'logs', 'pressure') });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: {
        metadata: { name: 'writer' }, image: { image: BUSYBOX_REF }, logPath: 'writer.log',
        command: ['sh', '-c', `i=0; while [ $i -lt ${LINES} ]; do echo "line $i"; i=$((i+1)); done; echo end; exec sleep 3600`],
      },
    });
    await e.startContainer({ containerId });
    const logPath = join(fx.dir, 'logs', 'pressure', 'writer.log');
    const rotated: string[] = [];
    for (let n = 1; n <= 5; n++) {
      // Rotated as soon as the new file has a line, while the writer still writes.
      const text = await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')) || undefined, { timeoutMs: 10_000, what: `lines in log ${n}` });
      if (text.includes(' end\n')) break;
      await rename(logPath, `${logPath}.${n}`);
      rotated.push(`${logPath}.${n}`);
      await e.reopenContainerLog({ containerId });
    }
    await waitFor(async () => (await readFile(logPath, 'utf8').catch(() => '')).includes(' end\n'), { timeoutMs: 60_000, what: 'the last line' });
    // Lines as a reader puts them together: P (partial) records joined to the F that ends them.
    const contents: string[] = [];
    let partial = '';
    for (const file of [...rotated, logPath]) {
      for (const line of (await readFile(file, 'utf8')).split('\n')) {
        if (!line) continue;
        expect(line).toMatch(CRI_LOG_LINE);
        const [, , tag, ...rest] = line.split(' ');
        partial += rest.join(' ');
        if (tag === 'F') {
          contents.push(partial);
          partial = '';
        }
      }
    }
    expect(contents).toEqual([...Array.from({ length: LINES }, (_, i) => `line ${i}`), 'end']);
    expect(rotated.length).toBeGreaterThanOrEqual(2);
    await e.removePodSandbox({ podSandboxId });
  }, 120_000);

  const listed = async (id: string) => (await fx.engine.listPodSandbox({})).items.find((p) => p.id === id)?.state;

  // ListPodSandbox takes a no-infra pod's pins as a list saw them up to 2 s ago (sandbox-service.ts,
  // pinsMountedAsListed); everything else looks afresh.
  it('a stop shows in the next list, even right after a list saw the pod ready', async () => {
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: noInfraPod('pins-stop') });
    expect(await listed(podSandboxId)).toBe('SANDBOX_READY');
    await fx.engine.stopPodSandbox({ podSandboxId });
    expect(await listed(podSandboxId)).toBe('SANDBOX_NOTREADY');
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);

  it('a pin unmounted by hand: status says so at once, the list within its recheck', async () => {
    const { podSandboxId } = await fx.engine.runPodSandbox({ config: noInfraPod('pins-hand') });
    expect(await listed(podSandboxId)).toBe('SANDBOX_READY');
    const record = JSON.parse(readFileSync(join(fx.options.root, 'sandboxes', podSandboxId, 'meta.json'), 'utf8')) as { noInfra?: boolean; ipcnsPath: string };
    expect(record.noInfra).toBe(true);
    await run('umount', ['-l', record.ipcnsPath]);
    expect((await fx.engine.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
    await waitFor(async () => (await listed(podSandboxId)) === 'SANDBOX_NOTREADY' || undefined, { timeoutMs: 10_000, intervalMs: 100, what: 'the list to see the pin gone' });
    await fx.engine.stopPodSandbox({ podSandboxId });
    await fx.engine.removePodSandbox({ podSandboxId });
  }, 60_000);
});
