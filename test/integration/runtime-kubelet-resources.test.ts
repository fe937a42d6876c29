// A container with kubelet's exact resources (hugepage limits for 2MB and 1GB
// pages, oom_score_adj, CFS shares/quota/period, memory limit) under the
// cgroup parent kubelet's cgroupfs driver gives a burstable pod, on real runc:
// it starts on a host whose hugetlb controller is not on a cgroup v1
// hierarchy, and its cgroup holds the cpu and memory values.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeHugepageSizes } from '../../src/runtime/oci/hugetlb.js';
import { KUBELET_BURSTABLE_RESOURCES, kubeletContainer, kubeletPod, kubepodsLevelsPresent, removeKubeletPodCgroup, type KubeletPod } from '../rig/kubelet-shapes.js';
import { BUSYBOX_REF, openFixture, type RuntimeFixture } from './runtime-fixture.js';

describe('runtime: kubelet\'s container resources', () => {
  let fx: RuntimeFixture;
  let pod: KubeletPod | undefined;
  const kubepodsBefore = kubepodsLevelsPresent();

  beforeAll(async () => {
    fx = await openFixture();
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
    if (pod) await removeKubeletPodCgroup(pod, kubepodsBefore);
  }, 120_000);

  it('starts a container with kubelet\'s hugepage limits and applies its cpu and memory values', async () => {
    const e = fx.engine;
    pod = kubeletPod({ app: 'hugepages-web', node: 'isulats-node-0a1b2c3d4e5f', logRoot: join(fx.dir, 'var-log-pods') });
    const { podSandboxId } = await e.runPodSandbox({ config: pod.config });
    const { containerId } = await e.createContainer({
      podSandboxId,
      config: kubeletContainer(pod, { name: 'web', image: BUSYBOX_REF, command: ['sleep', '3600'] }),
      sandboxConfig: pod.config,
    });
    await e.startContainer({ containerId });
    const status = (await e.containerStatus({ containerId, verbose: true }));
    expect(status.status?.state).toBe('CONTAINER_RUNNING');
    const { cgroupsPath, bundle } = JSON.parse(status.info.info!) as { cgroupsPath: string; bundle: string };
    expect(cgroupsPath).toBe(`${pod.cgroupParent}/${containerId}`);
    // The limits are in the spec exactly where this host can apply them.
    const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as { linux: { resources: { hugepageLimits?: unknown[] } }; process: { oomScoreAdj: number } };
    const settable = probeHugepageSizes();
    expect(spec.linux.resources.hugepageLimits ?? []).toEqual(KUBELET_BURSTABLE_RESOURCES.hugepageLimits.filter((h) => settable.includes(h.pageSize)).map((h) => ({ pageSize: h.pageSize, limit: 0 })));
    expect(spec.process.oomScoreAdj).toBe(998);
    const v2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
    const read = (controller: string, file: string) => readFileSync(join('/sys/fs/cgroup', v2 ? '' : controller, cgroupsPath, file), 'utf8').trim();
    if (v2) {
      expect(read('', 'cpu.max')).toBe('50000 100000');
      expect(read('', 'memory.max')).toBe(String(128 * 1024 * 1024));
    } else {
      expect(read('cpu', 'cpu.cfs_quota_us')).toBe('50000');
      expect(read('cpu', 'cpu.cfs_period_us')).toBe('100000');
      expect(read('cpu', 'cpu.shares')).toBe('102');
      expect(read('memory', 'memory.limit_in_bytes')).toBe(String(128 * 1024 * 1024));
    }
    const pid = (JSON.parse(status.info.info!) as { pid: number }).pid;
    expect(readFileSync(`/proc/${pid}/oom_score_adj`, 'utf8').trim()).toBe('998');
    await e.removePodSandbox({ podSandboxId });
  });
});
