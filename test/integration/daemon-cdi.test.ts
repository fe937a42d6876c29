// CDI through `isulats daemon` over CRI: daemon.json's cdi-spec-dirs, a
// kubelet-shaped CreateContainer with CDI_devices, the InvalidArgument an
// unknown device gets on the wire, verbose Status's cdi info, and doctor's
// cdi row naming a broken spec file.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../rig/cli.js';
import { openCriClient, type CriMessage, type RawCriClient } from '../rig/cri-client.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

describe('CDI in the daemon', () => {
  let dir: string;
  let cdiDir: string;
  let daemon: IsulatsDaemon;
  let c: RawCriClient;
  let podSandboxId = '';
  let pod: CriMessage;

  beforeAll(async () => {
    dir = await makeTempDir('ist-cdi-');
    cdiDir = join(dir, 'cdi');
    mkdirSync(cdiDir);
    writeFileSync(join(dir, 'license.txt'), 'vendor firmware blob\n');
    writeFileSync(join(cdiDir, 'acme-fpga.json'), JSON.stringify({
      cdiVersion: '0.7.0',
      kind: 'acme.example.com/fpga',
      devices: [{ name: 'fpga0', containerEdits: { env: ['ACME_FPGA=0'], deviceNodes: [{ path: '/dev/acme-fpga0', hostPath: '/dev/zero' }], mounts: [{ hostPath: join(dir, 'license.txt'), containerPath: '/opt/acme/license.txt', options: ['ro', 'bind'] }], additionalGids: [4242] } }],
    }));
    writeFileSync(join(cdiDir, 'broken.yaml'), 'cdiVersion: "0.6.0"\nkind: acme.example.com/nic\ndevices: []\n');
    const env = rigEnv();
    daemon = await startIsulatsDaemon({ podSandboxImage: env.ISULATS_TEST_PAUSE, extraConfig: { 'cdi-spec-dirs': [cdiDir] } });
    c = openCriClient(daemon.endpoint);
    await c.image('PullImage', { image: { image: env.ISULATS_TEST_BUSYBOX } });
    const uid = randomUUID();
    const name = `fpga-inference-${uid.slice(0, 8)}`;
    pod = {
      metadata: { name, uid, namespace: 'accel', attempt: 0 },
      hostname: name,
      labels: { 'io.kubernetes.pod.name': name, 'io.kubernetes.pod.namespace': 'accel', 'io.kubernetes.pod.uid': uid },
      annotations: { 'kubernetes.io/config.source': 'api' },
      linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
    };
    podSandboxId = (await c.runtime('RunPodSandbox', { config: pod })).podSandboxId;
  }, 120_000);

  afterAll(async () => {
    if (podSandboxId) {
      await c.runtime('StopPodSandbox', { podSandboxId }).catch(() => undefined);
      await c.runtime('RemovePodSandbox', { podSandboxId }).catch(() => undefined);
    }
    c?.close();
    await daemon?.cleanup();
    if (dir) await removeTempDir(dir);
  }, 120_000);

  const container = (name: string, devices: string[]): CriMessage => ({
    metadata: { name, attempt: 0 },
    image: { image: rigEnv().ISULATS_TEST_BUSYBOX },
    command: ['sleep', '3600'],
    labels: { 'io.kubernetes.container.name': name, 'io.kubernetes.pod.name': pod.metadata.name, 'io.kubernetes.pod.namespace': 'accel', 'io.kubernetes.pod.uid': pod.metadata.uid },
    annotations: { 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    CDIDevices: devices.map((name) => ({ name })),
    linux: { securityContext: { namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } } },
  });

  it('injects the devices of CDI_devices from the dirs daemon.json names', async () => {
    const { containerId } = await c.runtime('CreateContainer', { podSandboxId, config: container('inference', ['acme.example.com/fpga=fpga0']), sandboxConfig: pod });
    await c.runtime('StartContainer', { containerId });
    const r = await c.runtime('ExecSync', { containerId, cmd: ['sh', '-c', 'ls -l /dev/acme-fpga0; echo $ACME_FPGA; cat /opt/acme/license.txt; id -G'], timeout: 10 });
    // /dev/zero's numbers (1,5), read from the host.
    expect(Buffer.from(r.stdout).toString()).toMatch(/^crw-rw-rw-\s+1 root\s+root\s+1,\s+5 .*\/dev\/acme-fpga0\n0\nvendor firmware blob\n.*\b4242\b/);
  });

  it('answers an unknown device with InvalidArgument naming it and the dir searched', async () => {
    const before = (await c.runtime('ListContainers', {})).containers.length;
    const err = (await c.runtime('CreateContainer', { podSandboxId, config: container('wants-nic', ['acme.example.com/nic=eth9']), sandboxConfig: pod }).catch((e: unknown) => e)) as grpc.ServiceError;
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toMatch(new RegExp(`^CDI: unresolvable CDI device\\(s\\) acme.example.com/nic=eth9 \\(searched ${cdiDir}; 1 spec file\\(s\\) skipped: ${join(cdiDir, 'broken.yaml')}: no devices\\)$`));
    expect((await c.runtime('ListContainers', {})).containers.length).toBe(before);
  });

  it('reports CDI and the node features in verbose Status and in doctor', async () => {
    const status = (await c.runtime('Status', { verbose: true })).info;
    expect(JSON.parse(status.nodeFeatures)).toEqual({
      cdi: { available: true }, imageVolumes: { available: true },
      checkpoint: expect.objectContaining({ available: expect.any(Boolean) }),
    });
    const info = JSON.parse(status.cdi);
    expect(info).toEqual({ enabled: true, specDirs: [cdiDir], specs: 1, devices: ['acme.example.com/fpga=fpga0'], errors: { [join(cdiDir, 'broken.yaml')]: 'no devices' } });
    const r = await runCli(['--timeout', '20s', 'doctor', '-o', 'json', '-r', daemon.endpoint], { timeoutMs: 90_000 });
    const checks = (JSON.parse(r.stdout) as { checks: Array<{ id: string; status: string; evidence: string }> }).checks;
    expect(checks.find((x) => x.id === 'features')).toMatchObject({ status: 'ok', evidence: expect.stringMatching(/^CDI devices: yes; image volumes: yes; checkpoint: (yes|no \(checkpoint needs CRIU, which cannot run on this host: .+\))$/) });
    const row = checks.find((x) => x.id === 'cdi');
    expect(row).toMatchObject({ status: 'warn', evidence: `1 device(s) in 1 spec(s) from ${cdiDir}; 1 spec file(s) skipped, first ${join(cdiDir, 'broken.yaml')}: no devices` });
  });
});
