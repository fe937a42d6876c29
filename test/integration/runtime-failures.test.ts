import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../rig/free-port.js';
import { run } from '../rig/proc.js';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, leases, mountsUnder, openFixture, podConfig, type RuntimeFixture } from './runtime-fixture.js';

async function deadPid(): Promise<number> {
  const { stdout } = await run('sh', ['-c', 'sh -c "echo \\$\\$" ']);
  return Number(stdout.trim());
}

function tcpRead(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    sock.setTimeout(2000, () => sock.destroy(new Error('timeout')));
    sock.on('data', (b) => parts.push(b));
    sock.on('error', reject);
    sock.on('close', () => resolve(Buffer.concat(parts).toString()));
    sock.end('hi\n');
  });
}

describe('runtime: rollback, recovery, host ports and events', () => {
  let fx: RuntimeFixture;

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it('rolls back every step of RunPodSandbox when runc fails to start the pause container', async () => {
    const e = fx.engine;
    const remove = e.ctx.runner.addHook((cmd, args) => {
      if (cmd === 'runc' && args.includes('run')) throw new Error('injected: runc run failed');
    });
    try {
      await expect(e.runPodSandbox({ config: podConfig('rollback') })).rejects.toThrow('injected: runc run failed');
    } finally {
      remove();
    }
    expect(await readdir(join(fx.options.root, 'sandboxes'))).toEqual([]);
    expect(await readdir(join(fx.options.root, 'names', 'sandboxes'))).toEqual([]);
    expect(await readdir(join(fx.options.state, 'netns'))).toEqual([]);
    expect(await leases(fx.net)).toEqual([]);
    expect(await mountsUnder(fx.dir)).toEqual([]);
    // The same pod can be run afterwards.
    const { podSandboxId } = await e.runPodSandbox({ config: podConfig('rollback') });
    await e.removePodSandbox({ podSandboxId });
  });

  it('rolls back CreateContainer when a step after the rootfs fails', async () => {
    const e = fx.engine;
    const pod = podConfig('ctr-rollback');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    try {
      // Devices are resolved after the record, the name and the rootfs were acquired.
      const config = { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['true'], devices: [{ hostPath: '/dev/isulats-missing', containerPath: '/dev/x', permissions: 'rw' }] };
      await expect(e.createContainer({ podSandboxId, sandboxConfig: pod, config })).rejects.toThrow('/dev/isulats-missing');
      expect(await readdir(join(fx.options.root, 'containers'))).toEqual([]);
      expect(await readdir(join(fx.options.root, 'names', 'containers'))).toEqual([]);
      expect((await mountsUnder(fx.dir)).filter((m) => !m.includes(podSandboxId))).toEqual([]);
    } finally {
      await e.removePodSandbox({ podSandboxId });
    }
  });

  it('records a StartContainer whose conmon fails as exited with StartError, leaving no runc container', async () => {
    const e = fx.engine;
    const pod = podConfig('start-fail');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    try {
      // CreateContainer starts no process: runc and conmon run at StartContainer.
      const ran: string[] = [];
      let unhook = e.ctx.runner.addHook((cmd) => { ran.push(cmd); });
      const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['true'] } });
      unhook();
      expect(ran).toEqual([]);
      expect((await e.containerStatus({ containerId })).status?.state).toBe('CONTAINER_CREATED');
      unhook = e.ctx.runner.addHook((cmd) => {
        if (cmd === 'conmon') throw new Error('injected: conmon failed');
      });
      try {
        await expect(e.startContainer({ containerId })).rejects.toThrow('injected');
      } finally {
        unhook();
      }
      expect((await e.containerStatus({ containerId })).status).toMatchObject({ state: 'CONTAINER_EXITED', reason: 'StartError', exitCode: 128 });
      expect(existsSync(join(fx.options.state, 'runc', containerId))).toBe(false);
      await e.removeContainer({ containerId });
      expect(await readdir(join(fx.options.root, 'containers'))).toEqual([]);
    } finally {
      await e.removePodSandbox({ podSandboxId });
    }
  });

  it('undoes a RunPodSandbox abandoned by a dead process when the next engine opens', async () => {
    const e = fx.engine;
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atPause = new Promise<void>((r) => (reached = r));
    const remove = e.ctx.runner.addHook(async (cmd, args) => {
      if (cmd === 'runc' && args.includes('run')) {
        reached();
        await blocked;
        throw new Error('the creating process "died" here');
      }
    });
    const pending = e.runPodSandbox({ config: podConfig('abandoned') }).catch(() => undefined);
    await atPause;
    // Netns and CNI are acquired now; make the record look like its creator died, then open a new engine.
    const [id] = await readdir(join(fx.options.root, 'sandboxes'));
    await e.ctx.sandboxes.update(id!, async (r) => ({ ...r, creating: { pid: await deadPid() } }));
    expect(existsSync(join(fx.options.state, 'netns', id!))).toBe(true);
    expect(await leases(fx.net)).toHaveLength(1);
    const e2 = await fx.reopen();
    expect(await readdir(join(fx.options.root, 'sandboxes'))).toEqual([]);
    expect(existsSync(join(fx.options.state, 'netns', id!))).toBe(false);
    expect(await leases(fx.net)).toEqual([]);
    release();
    remove();
    await pending;
    expect((await e2.listPodSandbox({})).items).toEqual([]);
  });

  it('undoes an abandoned CreateContainer and removes a netns nobody owns when the next engine opens', async () => {
    const e = fx.engine;
    const pod = podConfig('abandoned-ctr');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    let release!: () => void;
    const blocked = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atRootfs = new Promise<void>((r) => (reached = r));
    // CreateContainer starts no process to hook: hold it once its rootfs is prepared instead.
    const prepare = e.ctx.snapshots.prepare.bind(e.ctx.snapshots);
    e.ctx.snapshots.prepare = async (...args: Parameters<typeof prepare>) => {
      const made = await prepare(...args);
      reached();
      await blocked;
      throw new Error('the creating process "died" here');
      return made;
    };
    const remove = () => { e.ctx.snapshots.prepare = prepare; };
    const pending = e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'c' }, image: { image: BUSYBOX_REF }, command: ['true'] } }).catch(() => undefined);
    await atRootfs;
    const [id] = await readdir(join(fx.options.root, 'containers'));
    await e.ctx.containers.update(id!, async (r) => ({ ...r, creating: { pid: await deadPid() } }));
    const stray = join(fx.options.state, 'netns', 'f'.repeat(64));
    await run('sh', ['-c', `touch ${stray} && unshare --net=${stray} true`]);
    const e2 = await fx.reopen();
    expect(await readdir(join(fx.options.root, 'containers'))).toEqual([]);
    expect(await readdir(join(fx.options.root, 'names', 'containers'))).toEqual([]);
    expect(existsSync(stray)).toBe(false);
    expect((await mountsUnder(join(fx.options.state, 'rootfs'))).filter((m) => !m.includes(podSandboxId))).toEqual([]);
    release();
    remove();
    await pending;
    await e2.removePodSandbox({ podSandboxId });
  });

  it('runs and removes pods concurrently from two engines on one root without clashes', async () => {
    const a = fx.engine;
    const b = await fx.reopen();
    const runs = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).runPodSandbox({ config: podConfig(`conc${i}`) })));
    const ips = await Promise.all(runs.map(async (r) => (await a.podSandboxStatus({ podSandboxId: r.podSandboxId })).status!.network!.ip));
    expect(new Set(ips).size).toBe(6);
    const dup = await Promise.allSettled([a.runPodSandbox({ config: podConfig('same') }), b.runPodSandbox({ config: podConfig('same') })]);
    expect(dup.filter((d) => d.status === 'fulfilled')).toHaveLength(1);
    const all = (await b.listPodSandbox({})).items.map((p) => p.id);
    await Promise.all(all.map((id, i) => (i % 2 ? a : b).removePodSandbox({ podSandboxId: id })));
    await Promise.all(all.map((id) => a.removePodSandbox({ podSandboxId: id })));
    expect((await a.listPodSandbox({})).items).toEqual([]);
    expect(await leases(fx.net)).toEqual([]);
  });

  it('reaches a container port from the host through the portmap plugin', async () => {
    const e = fx.engine;
    const hostPort = await freePort();
    const pod = podConfig('hostport', { portMappings: [{ protocol: 'TCP', containerPort: 8080, hostPort }] });
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({
      podSandboxId,
      sandboxConfig: pod,
      config: { metadata: { name: 'web' }, image: { image: BUSYBOX_REF }, command: ['sh', '-c', 'while true; do echo from-pod | nc -l -p 8080; done'] },
    });
    await e.startContainer({ containerId });
    const reply = await waitFor(async () => ((await tcpRead(hostPort).catch(() => '')).includes('from-pod') ? 'ok' : undefined), { timeoutMs: 15_000, what: 'host port reply' });
    expect(reply).toBe('ok');
    await e.removePodSandbox({ podSandboxId });
    const nat = await run('iptables', ['-t', 'nat', '-S'], { check: false });
    expect(nat.stdout).not.toContain(String(hostPort));
  });

  it('streams container events written by any engine instance', async () => {
    const e = fx.engine;
    const abort = new AbortController();
    const seen: string[] = [];
    const reader = (async () => {
      for await (const ev of e.getContainerEvents({}, abort.signal)) {
        seen.push(`${ev.containerId.slice(0, 12)} ${ev.containerEventType}`);
        if (seen.filter((x) => x.endsWith('CONTAINER_DELETED_EVENT')).length === 2) abort.abort();
      }
    })();
    await new Promise((r) => setTimeout(r, 300));
    const other = await fx.reopen();
    const pod = podConfig('events');
    const { podSandboxId } = await other.runPodSandbox({ config: pod });
    const { containerId } = await other.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'ev' }, image: { image: BUSYBOX_REF }, command: ['sleep', '60'] } });
    await other.startContainer({ containerId });
    const quick = await other.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'quick' }, image: { image: BUSYBOX_REF }, command: ['true'] } });
    await other.startContainer({ containerId: quick.containerId });
    await waitFor(async () => (await other.containerStatus({ containerId: quick.containerId })).status?.state === 'CONTAINER_EXITED', { timeoutMs: 10_000, what: 'quick exit' });
    await other.removeContainer({ containerId: quick.containerId });
    await other.removePodSandbox({ podSandboxId });
    const timer = setTimeout(() => abort.abort(), 10_000);
    await reader;
    clearTimeout(timer);
    const of = (id: string) => seen.filter((x) => x.startsWith(id.slice(0, 12))).map((x) => x.split(' ')[1]);
    const lifecycle = ['CONTAINER_CREATED_EVENT', 'CONTAINER_STARTED_EVENT', 'CONTAINER_STOPPED_EVENT', 'CONTAINER_DELETED_EVENT'];
    expect(of(containerId)).toEqual(lifecycle);
    expect(of(quick.containerId)).toEqual(lifecycle);
  });

  it('reports runtime and network status, runtime config and pod stats', async () => {
    const e = fx.engine;
    const status = (await e.status({})).status!;
    expect(status.conditions.map((c) => [c.type, c.status])).toEqual([['RuntimeReady', true], ['NetworkReady', true]]);
    expect((await e.runtimeConfig({})).linux?.cgroupDriver).toBe('CGROUPFS');
    await e.updateRuntimeConfig({ runtimeConfig: { networkConfig: { podCidr: '10.244.0.0/24' } } });
    const pod = podConfig('stats');
    const { podSandboxId } = await e.runPodSandbox({ config: pod });
    const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 's' }, image: { image: BUSYBOX_REF }, command: ['sleep', '60'] } });
    await e.startContainer({ containerId });
    const stats = (await e.podSandboxStats({ podSandboxId })).stats!;
    expect(stats.linux?.containers).toHaveLength(1);
    expect(BigInt(stats.linux!.memory!.workingSetBytes!.value)).toBeGreaterThan(0n);
    expect((await e.listPodSandboxStats({})).stats.map((s) => s.attributes?.id)).toContain(podSandboxId);
    expect((await e.listContainerStats({ filter: { podSandboxId } })).stats).toHaveLength(1);
    await e.removePodSandbox({ podSandboxId });
  });
});
