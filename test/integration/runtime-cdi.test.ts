// CDI through the engine, with real runc: specs written into temp dirs
// configured as the CDI dirs inject a host char device (made with mknod with
// /dev/null's numbers, its major/minor left for the runtime to read from the
// host), a mount of a host dir and env; asked for by the CRI field, by
// cdi.k8s.io annotations and by an NRI plugin; an unknown device fails with
// InvalidArgument and leaves nothing behind; a spec rewritten at run time is
// picked up by the next create.
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/runtime/engine.js';
import { mknod, S_IFCHR } from '../../src/runtime/native.js';
import { kubeletContainer, type KubeletPod } from '../rig/kubelet-shapes.js';
import { bundlePlugin } from '../rig/nri-plugin-bundles.js';
import { BUSYBOX_REF, kubeletShapedPod, mountsUnder, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const VENDOR_SPEC = (hostNode: string, data: string) => `# written by a device plugin
cdiVersion: "0.6.0"
kind: example.com/device
containerEdits:
  env: ["CDI_VENDOR=example"]
devices:
  - name: null0
    containerEdits:
      env: ["CDI_DEVICE=null0"]
      deviceNodes:
        - path: /dev/cdi-null
          hostPath: ${hostNode}
          permissions: rwm
      mounts:
        - hostPath: ${data}
          containerPath: /cdi-data
          options: [ro, rbind, nosuid, nodev]
`;

const NRI_CDI_PLUGIN = `
import { adjustment, runPlugin } from './src/nri/sdk/index.js';
await runPlugin({ createContainer: (_pod, c) => ({ adjust: c.name === 'nri-gpu' ? adjustment().addCDIDevice('example.com/device=null0').build() : adjustment().build() }) }, { name: 'cdi-adder', idx: '10' });
`;

describe('CDI devices in the engine', () => {
  let fx: RuntimeFixture;
  let cdiRoot: string;
  let etcCdi: string;
  let runCdi: string;
  let hostNode: string;

  beforeAll(async () => {
    cdiRoot = mkdtempSync('/tmp/iscdi-');
    etcCdi = join(cdiRoot, 'etc-cdi');
    runCdi = join(cdiRoot, 'run-cdi');
    mkdirSync(etcCdi);
    mkdirSync(runCdi);
    mkdirSync(join(cdiRoot, 'dev'));
    hostNode = join(cdiRoot, 'dev', 'cdi-null');
    mknod(hostNode, S_IFCHR | 0o666, 1, 3);
    chmodSync(hostNode, 0o666);
    const data = join(cdiRoot, 'data');
    mkdirSync(data);
    writeFileSync(join(data, 'payload'), 'from-the-cdi-mount\n');
    writeFileSync(join(runCdi, 'example-device.yaml'), VENDOR_SPEC(hostNode, data));
    fx = await openFixture({ cdiSpecDirs: [etcCdi, runCdi] });
  }, 120_000);

  afterAll(async () => {
    await fx?.dispose();
    if (cdiRoot) rmSync(cdiRoot, { recursive: true, force: true });
  }, 120_000);

  const podOf = (cfg: ReturnType<typeof kubeletShapedPod>): KubeletPod => ({
    name: cfg.metadata.name, namespace: cfg.metadata.namespace, uid: cfg.metadata.uid, cgroupParent: '', logDirectory: '', config: cfg,
  });
  const sh = async (engine: Engine, containerId: string, script: string) => {
    const r = await engine.execSync({ containerId, cmd: ['sh', '-c', script], timeout: 10 });
    return { out: r.stdout.toString(), err: r.stderr.toString(), code: r.exitCode };
  };
  const containerDirs = () => readdirSync(join(fx.options.root, 'containers')).filter((n) => /^[0-9a-f]{64}$/.test(n));

  it('injects a host char device (numbers read from the host), a mount and env from kubelet\'s CDI_devices field', async () => {
    const engine = fx.engine;
    const pod = kubeletShapedPod('cdi-gpu-workload', 'ml-jobs');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const config = { ...kubeletContainer(podOf(pod), { name: 'trainer', image: BUSYBOX_REF, command: ['sleep', '3600'] }), CDIDevices: [{ name: 'example.com/device=null0' }] };
    const { containerId } = await engine.createContainer({ podSandboxId, config, sandboxConfig: pod });
    const spec = JSON.parse(readFileSync(join(fx.options.root, 'containers', containerId, 'bundle', 'config.json'), 'utf8'));
    expect(spec.linux.devices).toContainEqual({ path: '/dev/cdi-null', type: 'c', major: 1, minor: 3, fileMode: 0o666 });
    expect(spec.linux.resources.devices).toContainEqual({ allow: true, type: 'c', major: 1, minor: 3, access: 'rwm' });
    await engine.startContainer({ containerId });
    expect((await sh(engine, containerId, 'ls -l /dev/cdi-null')).out).toMatch(/^crw-rw-rw-\s+1\s+root\s+root\s+1,\s+3 .*\/dev\/cdi-null$/m);
    expect(await sh(engine, containerId, 'echo written > /dev/cdi-null && echo ok')).toMatchObject({ out: 'ok\n', code: 0 });
    const env = (await sh(engine, containerId, 'env')).out;
    expect(env).toMatch(/^CDI_VENDOR=example$/m);
    expect(env).toMatch(/^CDI_DEVICE=null0$/m);
    expect(env).toMatch(/^KUBERNETES_SERVICE_HOST=10.96.0.1$/m);
    expect((await sh(engine, containerId, 'cat /cdi-data/payload')).out).toBe('from-the-cdi-mount\n');
    // Read-only, as the spec's options say.
    expect((await sh(engine, containerId, 'touch /cdi-data/x')).code).not.toBe(0);
    await engine.removePodSandbox({ podSandboxId });
  }, 120_000);

  it('takes cdi.k8s.io annotations, and picks up a spec rewritten while the engine runs', async () => {
    const engine = fx.engine;
    const file = join(etcCdi, 'generated.json');
    const write = (gen: string) => writeFileSync(file, JSON.stringify({ cdiVersion: '0.5.0', kind: 'example.com/gen', devices: [{ name: 'g0', containerEdits: { env: [`GENERATION=${gen}`] } }] }));
    write('first');
    const pod = kubeletShapedPod('cdi-annotated', 'ml-jobs');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const make = async (name: string) => {
      const base = kubeletContainer(podOf(pod), { name, image: BUSYBOX_REF, command: ['sleep', '3600'] });
      const config = { ...base, annotations: { ...base.annotations, 'cdi.k8s.io/example-device-plugin_g0': 'example.com/gen=g0,example.com/device=null0' } };
      const { containerId } = await engine.createContainer({ podSandboxId, config, sandboxConfig: pod });
      await engine.startContainer({ containerId });
      return containerId;
    };
    const a = await make('first');
    expect((await sh(engine, a, 'echo $GENERATION; ls /dev/cdi-null')).out).toBe('first\n/dev/cdi-null\n');
    // Same size, same second: only the file's mtime (ns) and content differ.
    write('secnd');
    const b = await make('second');
    expect((await sh(engine, b, 'echo $GENERATION')).out).toBe('secnd\n');
    await engine.removePodSandbox({ podSandboxId });
    rmSync(file);
  }, 120_000);

  it('fails an unknown device with InvalidArgument naming it and the dirs, leaving nothing behind', async () => {
    const engine = fx.engine;
    const pod = kubeletShapedPod('cdi-missing', 'ml-jobs');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const before = { dirs: containerDirs(), mounts: await mountsUnder(fx.dir) };
    const config = { ...kubeletContainer(podOf(pod), { name: 'wants-gpu', image: BUSYBOX_REF, command: ['sleep', '3600'] }), CDIDevices: [{ name: 'example.com/device=null0' }, { name: 'nvidia.com/gpu=GPU-7f3a' }] };
    const err = (await engine.createContainer({ podSandboxId, config, sandboxConfig: pod }).catch((e: unknown) => e)) as Error & { kind?: string };
    expect(err.kind).toBe('invalid-argument');
    expect(err.message).toBe(`CDI: unresolvable CDI device(s) nvidia.com/gpu=GPU-7f3a (searched ${etcCdi}, ${runCdi})`);
    const bad = { ...config, CDIDevices: [{ name: 'gpu0' }] };
    expect(await engine.createContainer({ podSandboxId, config: bad, sandboxConfig: pod }).catch((e: Error) => e.message)).toBe('CDI device from CDI_devices: unqualified device "gpu0" (expected vendor.com/class=name)');
    expect((await engine.listContainers({})).containers.filter((c) => c.podSandboxId === podSandboxId)).toEqual([]);
    expect(containerDirs()).toEqual(before.dirs);
    expect(await mountsUnder(fx.dir)).toEqual(before.mounts);
    await engine.removePodSandbox({ podSandboxId });
  }, 120_000);

  it('injects a CDI device an NRI plugin asks for', async () => {
    const bundles = join(fx.dir, 'nri-bundles');
    await bundlePlugin(bundles, 'cdi-adder', { source: NRI_CDI_PLUGIN });
    const pluginDir = join(fx.dir, 'nri-plugins');
    mkdirSync(pluginDir);
    writeFileSync(join(pluginDir, '10-cdi-adder'), `#!/bin/sh\nexec "${process.execPath}" "${join(bundles, 'cdi-adder.mjs')}"\n`);
    chmodSync(join(pluginDir, '10-cdi-adder'), 0o755);
    const saved = fx.options.nri;
    fx.options.nri = { enabled: true, mode: 'embedded', pluginDir, pluginConfigDir: join(fx.dir, 'no-conf'), registrationTimeoutMs: 5000, requestTimeoutMs: 2000 };
    let engine: Engine;
    try {
      engine = await fx.reopen();
    } finally {
      fx.options.nri = saved;
    }
    const pod = kubeletShapedPod('cdi-nri', 'ml-jobs');
    const { podSandboxId } = await engine.runPodSandbox({ config: pod });
    const { containerId } = await engine.createContainer({ podSandboxId, config: kubeletContainer(podOf(pod), { name: 'nri-gpu', image: BUSYBOX_REF, command: ['sleep', '3600'] }), sandboxConfig: pod });
    await engine.startContainer({ containerId });
    expect((await sh(engine, containerId, 'ls -l /dev/cdi-null; echo $CDI_DEVICE; cat /cdi-data/payload')).out).toMatch(/^crw-rw-rw-\s+1\s+root\s+root\s+1,\s+3 .*\/dev\/cdi-null\nnull0\nfrom-the-cdi-mount\n$/);
    await engine.removePodSandbox({ podSandboxId });
  }, 120_000);
});
