import { existsSync, rmSync } from 'node:fs';
import { readdir, readFile, readlink, rmdir, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKind } from '../../src/runtime/errors.js';
import { Engine } from '../../src/runtime/engine.js';
import { waitFor } from '../rig/wait.js';
import { kernelLogShowsOomKill, kmsgTimeAt } from '../../src/runtime/oci/kernel-oom-log.js';
import { RuncConmonRuntime } from '../../src/runtime/oci/runc-conmon.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { anyAlive, BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

async function pidOf(e: RuntimeFixture['engine'], containerId: string): Promise<number> {
  return JSON.parse((await e.containerStatus({ containerId, verbose: true })).info.info!).pid as number;
}

describe('runtime: namespaces, resources, failures and restarts', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('runs two containers in one pod that share the network namespace', async () => {
    const e = fx.engine;
    const pod = podConfig('sharing');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const server = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'server' }, image: { image: BUSYBOX_REF }, command: ['sh', '-c', 'while true; do echo pong | nc -l -p 8080; done'] },
    });
    const client = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'client' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] },
    });
    await e.startContainer({ containerId: server.containerId });
    await e.startContainer({ containerId: client.containerId });
    const nsA = await readlink(`/proc/${await pidOf(e, server.containerId)}/ns/net`);
    const nsB = await readlink(`/proc/${await pidOf(e, client.containerId)}/ns/net`);
    expect(nsA).toBe(nsB);
    const reply = await waitFor(
      async () => {
        const r = await e.execSync({ containerId: client.containerId, cmd: ['sh', '-c', 'echo ping | nc -w 1 127.0.0.1 8080'], timeout: 5 });
        return r.stdout.toString().includes('pong') ? r.stdout.toString() : undefined;
      },
      { timeoutMs: 10_000, what: 'reply over the shared loopback' },
    );
    expect(reply.trim()).toBe('pong');
    await e.execSync({ containerId: server.containerId, cmd: ['sh', '-c', 'echo shared-token > /dev/shm/token'] });
    expect((await e.execSync({ containerId: client.containerId, cmd: ['cat', '/dev/shm/token'] })).stdout.toString()).toBe('shared-token\n');
    const listed = await e.listContainers({ filter: { podSandboxId } });
    expect(listed.containers.map((c) => c.metadata?.name).sort()).toEqual(['client', 'server']);
    const running = await e.listContainers({ filter: { state: { state: 'CONTAINER_RUNNING' } } });
    expect(running.containers.length).toBeGreaterThanOrEqual(2);
    await e.removePodSandbox({ podSandboxId });
    expect((await e.listContainers({ filter: { podSandboxId } })).containers).toEqual([]);
    expect(await leases(fx.net)).toEqual([]);
  });

  it('rejects a bad container config with a clear error and leaves nothing behind', async () => {
    const e = fx.engine;
    const pod = podConfig('badcfg');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const before = await readdir(join(fx.options.root, 'containers'));
    const relative = e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'bad' }, image: { image: BUSYBOX_REF }, command: ['true'], mounts: [{ containerPath: 'relative/path', hostPath: '/tmp' }] },
    });
    await expect(relative).rejects.toThrow(/must be absolute/);
    await relative.catch((error) => expect(isKind(error, 'invalid-argument')).toBe(true));
    const missingImage = e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'bad' }, image: { image: 'isulats-test/nope:1' } } });
    await expect(missingImage).rejects.toThrow(/not found/);
    const missingUser = e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'bad' }, image: { image: BUSYBOX_REF }, command: ['true'], linux: { securityContext: { runAsUsername: 'nobody-here' } } },
    });
    await expect(missingUser).rejects.toThrow(/nobody-here/);
    expect(await readdir(join(fx.options.root, 'containers'))).toEqual(before);
    expect(await readdir(join(fx.options.root, 'names', 'containers'))).toEqual([]);
    expect((await readdir(join(fx.options.state, 'rootfs'))).filter((n) => n !== podSandboxId)).toEqual([]);
    // The name was released: a good config with the same name now works.
    const ok = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'bad' }, image: { image: BUSYBOX_REF }, command: ['true'] } });
    expect(ok.containerId).toMatch(/^[0-9a-f]{64}$/);
    await expect(e.runPodSandbox({ config: { metadata: { name: 'x' } } })).rejects.toThrow(/namespace and uid/);
    await expect(e.runPodSandbox({ config: pod })).rejects.toThrow(/reserved/);
    await e.removePodSandbox({ podSandboxId });
  });

  it('keeps a container running across engine close and reopen, then stops it from the new engine', async () => {
    const e = fx.engine;
    const pod = podConfig('survive');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'long' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const pid = await pidOf(e, containerId);
    await e.close();
    const e2 = await fx.reopen();
    expect((await e2.containerStatus({ containerId })).status?.state).toBe('CONTAINER_RUNNING');
    expect((await e2.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_READY');
    expect((await e2.execSync({ containerId, cmd: ['echo', 'still here'] })).stdout.toString()).toBe('still here\n');
    await e2.stopContainer({ containerId, timeout: 0 });
    const status = (await e2.containerStatus({ containerId })).status!;
    expect(status.state).toBe('CONTAINER_EXITED');
    expect(status.exitCode).toBe(137);
    expect(await anyAlive([pid])).toBe(false);
    await e2.removePodSandbox({ podSandboxId });
    expect(existsSync(join(fx.options.state, 'netns', podSandboxId))).toBe(false);
  });

  it('applies a resource update to the cgroup, honours exec timeouts and reports an OOM kill', async () => {
    const current = await fx.reopen();
    const pod = podConfig('resources');
    const { podSandboxId } = await current.runPodSandbox({ config: pod });
    const { containerId } = await current.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'limited' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { resources: { memoryLimitInBytes: 64 * 1024 * 1024, cpuShares: 512 } } },
    });
    await current.startContainer({ containerId });
    const cg = `/sys/fs/cgroup/memory${fx.options.cgroupParent}/${containerId}/memory.limit_in_bytes`;
    expect((await readFile(cg, 'utf8')).trim()).toBe(String(64 * 1024 * 1024));
    await current.updateContainerResources({ containerId, linux: { memoryLimitInBytes: 96 * 1024 * 1024, cpuShares: 256 } });
    expect((await readFile(cg, 'utf8')).trim()).toBe(String(96 * 1024 * 1024));
    expect((await readFile(`/sys/fs/cgroup/cpu${fx.options.cgroupParent}/${containerId}/cpu.shares`, 'utf8')).trim()).toBe('256');
    expect((await current.containerStatus({ containerId })).status?.resources?.linux?.memoryLimitInBytes).toBe(String(96 * 1024 * 1024));

    // A sleep of over an hour: only the 1 s timeout ends the exec, and its process is gone with it.
    await expect(current.execSync({ containerId, cmd: ['sleep', '4321'], timeout: 1 })).rejects.toThrow(/timed out/);
    expect((await current.top(containerId)).length).toBe(1);

    const hog = await current.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'hog' }, image: { image: BUSYBOX_REF }, command: ['tail', '/dev/zero'], linux: { resources: { memoryLimitInBytes: 16 * 1024 * 1024 } } },
    });
    await current.startContainer({ containerId: hog.containerId });
    // conmon 2.1.6 creates a file named `oom` in its working dir at the OOM event: that must be the
    // container's persist dir (it also writes one there), never the caller's (the repo, here).
    const hogBundle = join(fx.options.root, 'containers', hog.containerId, 'bundle');
    const hogMonitor = Number((await readFile(join(hogBundle, 'conmon.pid'), 'utf8')).trim());
    expect(await readlink(`/proc/${hogMonitor}/cwd`)).toBe(join(hogBundle, 'persist'));
    const oom = await waitFor(
      async () => {
        const s = (await current.containerStatus({ containerId: hog.containerId })).status!;
        return s.state === 'CONTAINER_EXITED' ? s : undefined;
      },
      { timeoutMs: 30_000, what: 'the memory hog to be killed' },
    );
    expect(oom.reason).toBe('OOMKilled');
    expect(oom.exitCode).toBe(137);
    // Under the systemd driver the scope is often gone before conmon reads memory.events; the
    // kernel's log is the record that outlives it (kernel-oom-log.ts). On this host it must find
    // the hog's kill by its init's pid or its cgroup, and nothing for the container that was not.
    const window = { fromUs: kmsgTimeAt(Date.now() - 120_000), toUs: kmsgTimeAt(Date.now()) + 1_000_000 };
    const hogPid = Number((await readFile(join(hogBundle, 'pidfile'), 'utf8')).trim());
    expect(kernelLogShowsOomKill({ containerId: hog.containerId, pid: hogPid, ...window })).toBe(true);
    const limitedPid = Number((await readFile(join(fx.options.root, 'containers', containerId, 'bundle', 'pidfile'), 'utf8')).trim());
    expect(kernelLogShowsOomKill({ containerId, pid: limitedPid, ...window })).toBe(false);
    // The runtime under the systemd driver, as conmon leaves it there (no oom file): it asks the
    // kernel's log and records the answer where conmon would have.
    rmSync(join(hogBundle, 'persist', 'oom'));
    const systemdRuntime = new RuncConmonRuntime({ runner: new ProcessRunner(), runcRoot: join(fx.options.state, 'runc'), exitDir: join(fx.options.state, 'exits'), socketDir: join(fx.options.state, 's'), systemdCgroup: true });
    expect(await systemdRuntime.exitInfo(hog.containerId, hogBundle)).toMatchObject({ exitCode: 137, oomKilled: true });
    expect(existsSync(join(hogBundle, 'persist', 'oom'))).toBe(true);
    await current.removePodSandbox({ podSandboxId });
    expect(await mountsUnder(join(fx.options.state, 'netns'))).toEqual([]);
  });

  it('runs a host-network pod without a netns or CNI attachment', async () => {
    const e = fx.engine;
    const pod = podConfig('hostnet', { linux: { securityContext: { namespaceOptions: { network: 'NODE' } } } });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const status = (await e.podSandboxStatus({ podSandboxId })).status!;
    expect(status.linux?.namespaces?.options?.network).toBe('NODE');
    expect(status.network?.ip).toBe('');
    expect(existsSync(join(fx.options.state, 'netns', podSandboxId))).toBe(false);
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'h' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'] } });
    await e.startContainer({ containerId });
    const pid = await pidOf(e, containerId);
    expect(await readlink(`/proc/${pid}/ns/net`)).toBe(await readlink('/proc/self/ns/net'));
    expect((await e.execSync({ containerId, cmd: ['hostname'] })).stdout.toString().trim()).toBe(hostname());
    await e.removePodSandbox({ podSandboxId });
  });

  it('shares a target container pid namespace and supports kill, wait, pause, unpause and restart', async () => {
    const e = fx.engine;
    const pod = podConfig('extras');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const main = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'main' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } },
    });
    await e.startContainer({ containerId: main.containerId });
    const debug = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'debug' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3601'], linux: { securityContext: { namespaceOptions: { pid: 'TARGET', targetId: main.containerId } } } },
    });
    await e.startContainer({ containerId: debug.containerId });
    const ps = (await e.execSync({ containerId: debug.containerId, cmd: ['ps', '-o', 'args'] })).stdout.toString();
    expect(ps).toContain('sleep 3600');
    expect(ps).toContain('sleep 3601');

    await e.pause(main.containerId);
    const state = await e.ctx.oci.state(main.containerId);
    expect(state?.status).toBe('paused');
    await e.unpause(main.containerId);
    expect((await e.ctx.oci.state(main.containerId))?.status).toBe('running');

    const firstPid = await pidOf(e, main.containerId);
    await e.restart(main.containerId, 1);
    expect((await e.containerStatus({ containerId: main.containerId })).status?.state).toBe('CONTAINER_RUNNING');
    expect(await pidOf(e, main.containerId)).not.toBe(firstPid);

    const waiting = e.wait(main.containerId);
    await e.kill(main.containerId, 'SIGKILL');
    expect(await waiting).toBe(137);
    await e.removePodSandbox({ podSandboxId });
  });
  /** PIDs of every process in a cgroup (v1: the pids hierarchy), its children included. */
  async function pidsUnder(parent: string): Promise<number[]> {
    const out: number[] = [];
    const walk = async (dir: string) => {
      const procs = await readFile(join(dir, 'cgroup.procs'), 'utf8').catch(() => '');
      out.push(...procs.split('\n').filter(Boolean).map(Number));
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) if (entry.isDirectory()) await walk(join(dir, entry.name));
    };
    await walk(join('/sys/fs/cgroup/pids', parent));
    return out.sort();
  }

  /** Removes a pod's cgroup parent (kubelet's job) from every hierarchy. */
  async function removePodCgroup(parent: string): Promise<void> {
    for (const c of await readdir('/sys/fs/cgroup')) await rmdir(join('/sys/fs/cgroup', c, parent)).catch(() => undefined);
  }

  const nsInode = async (pid: number, kind: string) => readlink(`/proc/${pid}/ns/${kind}`);

  it('runs a pod that shares no PID namespace without a pause: its containers share the pinned net, IPC and UTS namespaces, and nothing is left', async () => {
    const e = fx.engine;
    const parent = `${fx.options.cgroupParent}/pod-noinfra`;
    const pod = podConfig('noinfra-3f9c2a71-8d4e-4b1f-9e2c-5a6b7c8d9e0f', {
      hostname: 'noinfra-pod',
      linux: { cgroupParent: parent, sysctls: { 'net.ipv4.ip_unprivileged_port_start': '123', 'kernel.shmmni': '2048' }, securityContext: { namespaceOptions: { pid: 'CONTAINER' } } },
    });
    try {
      const { podSandboxId } = await e.runPodSandbox({ config: pod });
      const record = (await e.ctx.sandboxes.get(podSandboxId))!;
      expect({ pid: record.pid, noInfra: record.noInfra }).toEqual({ pid: 0, noInfra: true });
      const pins = [record.netnsPath!, record.ipcnsPath!, record.utsnsPath!];
      expect(pins.map((p) => p.startsWith(fx.options.state))).toEqual([true, true, true]);
      expect((await mountsUnder(fx.options.state)).filter((m) => pins.includes(m)).sort()).toEqual([...pins].sort());
      // Made where runc made it for a pause: UpdatePodSandboxResources can write there before any container runs.
      expect(existsSync(join('/sys/fs/cgroup/memory', parent))).toBe(true);
      await e.updatePodSandboxResources({ podSandboxId, resources: { cpuShares: 256 } });
      const status = await e.podSandboxStatus({ podSandboxId, verbose: true });
      expect(status.status?.state).toBe('SANDBOX_READY');
      expect(JSON.parse(status.info.info!)).toMatchObject({ pid: 0, infra: false, netnsPath: pins[0], ipcnsPath: pins[1], utsnsPath: pins[2] });

      const ids: string[] = [];
      // web serves on the pod's loopback only: port-forward reaches it through the pinned netns.
      const commands = { web: ['httpd', '-f', '-p', '127.0.0.1:8080', '-h', '/etc'], sidecar: ['sleep', '3600'] };
      for (const [name, command] of Object.entries(commands)) {
        const c = await e.createContainer({
          podSandboxId,
          sandboxConfig: pod,
          config: { metadata: { name }, image: { image: BUSYBOX_REF }, command, linux: { securityContext: { namespaceOptions: { pid: 'CONTAINER' } } } },
        });
        await e.startContainer({ containerId: c.containerId });
        ids.push(c.containerId);
      }
      const pids = await Promise.all(ids.map((id) => pidOf(e, id)));
      // No process in the pod's cgroup but its two containers.
      expect(await pidsUnder(parent)).toEqual([...pids].sort());
      for (const kind of ['net', 'ipc', 'uts']) expect(await nsInode(pids[0]!, kind)).toBe(await nsInode(pids[1]!, kind));
      expect(await nsInode(pids[0]!, 'pid')).not.toBe(await nsInode(pids[1]!, 'pid'));
      const inPod = async (id: string, cmd: string) => (await e.execSync({ containerId: id, cmd: ['sh', '-c', cmd] })).stdout.toString().trim();
      for (const id of ids) {
        expect(await inPod(id, 'hostname')).toBe('noinfra-pod');
        expect(await inPod(id, 'cat /proc/sys/net/ipv4/ip_unprivileged_port_start /proc/sys/kernel/shmmni')).toBe('123\n2048');
        expect(await inPod(id, "ip -4 -o addr show eth0 | awk '{print $4}'")).toBe(`${status.status?.network?.ip}/24`);
      }
      const forwarded = await waitFor(
        async () => {
          const conn = await e.portForwardInProcess(podSandboxId, 8080).catch(() => undefined);
          if (!conn) return undefined;
          let data = '';
          conn.on('data', (b: Buffer) => (data += b.toString()));
          const ended = new Promise((r) => conn.once('close', r).once('error', r).once('end', r));
          conn.write('GET /hostname HTTP/1.0\r\n\r\n');
          await ended;
          conn.destroy();
          return data.includes('200 OK') ? data : undefined;
        },
        { timeoutMs: 10_000, what: 'port-forward to the pod loopback' },
      );
      expect(forwarded.trim().split('\n').pop()).toBe('noinfra-pod');
      await e.execSync({ containerId: ids[0]!, cmd: ['sh', '-c', 'echo over-pinned-ipc > /dev/shm/token'] });
      expect(await inPod(ids[1]!, 'cat /dev/shm/token')).toBe('over-pinned-ipc');

      // Network metrics come from the pinned namespace (through a container in it).
      const metrics = (await e.listPodSandboxMetrics({})).podMetrics.find((m) => m.podSandboxId === podSandboxId)!;
      expect(metrics.metrics.some((m) => m.name === 'container_network_transmit_packets_total' && m.labelValues?.includes('eth0'))).toBe(true);
      const stats = (await e.podSandboxStats({ podSandboxId })).stats!;
      expect(stats.linux?.containers?.map((c) => c.attributes?.id).sort()).toEqual([...ids].sort());
      expect(BigInt(stats.linux?.memory?.workingSetBytes?.value ?? '0')).toBeGreaterThan(0n);

      // A new engine (a restart) finds it READY by its pins.
      const reopened = await fx.reopen();
      expect((await reopened.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_READY');

      await reopened.stopPodSandbox({ podSandboxId });
      expect((await reopened.podSandboxStatus({ podSandboxId })).status?.state).toBe('SANDBOX_NOTREADY');
      expect(await anyAlive(pids)).toBe(false);
      expect((await mountsUnder(fx.options.state)).filter((m) => pins.includes(m))).toEqual([]);
      await reopened.removePodSandbox({ podSandboxId });
      expect(pins.filter((p) => existsSync(p))).toEqual([]);
      expect(await leases(fx.net)).toEqual([]);
      expect(await pidsUnder(parent)).toEqual([]);
    } finally {
      await removePodCgroup(parent);
    }
  });

  it('refuses a sysctl outside the pod namespaces before making anything', async () => {
    const e = fx.engine;
    const before = await readdir(join(fx.options.root, 'sandboxes'));
    for (const sysctls of [{ 'kernel.pid_max': '4096' }, { 'net.core.somaxconn': '1024' }]) {
      const hostNet = 'net.core.somaxconn' in sysctls;
      const pod = podConfig(`badsysctl-${hostNet ? 'hostnet' : 'node'}`, { linux: { sysctls, securityContext: { namespaceOptions: hostNet ? { network: 'NODE' } : {} } } });
      const err = await e.runPodSandbox({ config: pod }).catch((x: Error) => x);
      expect(isKind(err, 'invalid-argument')).toBe(true);
      expect((err as Error).message).toMatch(hostNet ? /not allowed in the host's network namespace/ : /kernel\.pid_max" is not in a separate kernel namespace/);
    }
    expect(await readdir(join(fx.options.root, 'sandboxes'))).toEqual(before);
    for (const kind of ['netns', 'ipcns', 'utsns']) expect(await readdir(join(fx.options.state, kind))).toEqual([]);
  });

  it('keeps a pause for a pod that shares its PID namespace, joined to the pinned namespaces, and for every pod with drop-infra-container false', async () => {
    const shared = podConfig('sharedpid', { linux: { securityContext: { namespaceOptions: { pid: 'POD' } } } });
    const e = fx.engine;
    const { podSandboxId } = await e.runPodSandbox({ config: shared });
    const record = (await e.ctx.sandboxes.get(podSandboxId))!;
    expect(record.noInfra).toBe(false);
    expect(record.pid).toBeGreaterThan(0);
    for (const [kind, pin] of [['net', record.netnsPath], ['ipc', record.ipcnsPath], ['uts', record.utsnsPath]] as const) {
      expect((await stat(`/proc/${record.pid}/ns/${kind}`)).ino).toBe((await stat(pin!)).ino);
    }
    const c = await e.createContainer({
      podSandboxId,
      sandboxConfig: shared,
      config: { metadata: { name: 'app' }, image: { image: BUSYBOX_REF }, command: ['sleep', '3600'], linux: { securityContext: { namespaceOptions: { pid: 'POD' } } } },
    });
    await e.startContainer({ containerId: c.containerId });
    expect(await nsInode(await pidOf(e, c.containerId), 'pid')).toBe(await nsInode(record.pid, 'pid'));
    expect((await e.execSync({ containerId: c.containerId, cmd: ['cat', '/proc/1/cmdline'] })).stdout.toString()).toBe('/pause\0');
    await e.removePodSandbox({ podSandboxId });
    expect(await anyAlive([record.pid])).toBe(false);

    const withInfra = await Engine.open({ ...fx.options, dropInfraContainer: false });
    try {
      const pod = podConfig('alwaysinfra');
      const run = await withInfra.runPodSandbox({ config: pod });
      const r = (await withInfra.ctx.sandboxes.get(run.podSandboxId))!;
      expect({ noInfra: r.noInfra, alive: await anyAlive([r.pid]) }).toEqual({ noInfra: false, alive: true });
      expect(JSON.parse((await withInfra.podSandboxStatus({ podSandboxId: run.podSandboxId, verbose: true })).info.info!).infra).toBe(true);
      expect(JSON.parse((await withInfra.status({ verbose: true })).info.config!).dropInfraContainer).toBe(false);
      await withInfra.removePodSandbox({ podSandboxId: run.podSandboxId });
      expect(await anyAlive([r.pid])).toBe(false);
      expect(r.utsnsPath && existsSync(r.utsnsPath)).toBe(false);
    } finally {
      await withInfra.close();
    }
  });
});
