// Upstream crictl as a user drives a runtime: one crictl process per call, each with its own
// connection, through a config file of its own (runtime and image endpoint, a generous timeout so
// a loaded machine does not fail a call: the time is measured, not bounded). The pod and container
// configs are kubelet-shaped (namespace options, log directory and path, labels, a long name); the
// container's, by default, also with what kubelet puts in every one (test/go-cri-client's
// kubeletContainer: resources, RuntimeDefault seccomp, kubelet's masked and read-only paths,
// run-as-user, its env and annotations). `shape: 'minimal'` leaves those out, as a hand-written
// c.json does: then containerd masks no path (it takes the CRI's lists as they come) while isulats
// applies its defaults, so the two do different work.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../../test/rig/proc.js';

export interface Crictl {
  /** Runs `crictl <args>`; resolves with its trimmed stdout and wall time (spawn to exit), ms. */
  call(args: string[]): Promise<{ out: string; ms: number }>;
  /** Pod and container configs for one pod, written under the client's dir; `labels` go on the pod. */
  configs(name: string, labels?: Record<string, string>): Promise<{ pod: string; ctr: string }>;
}

/** A crictl bound to one endpoint; `dir` holds its config, the pod configs and the pods' logs. */
export type ConfigShape = 'kubelet' | 'minimal';

/** What kubelet 1.28+ sends for a container without a securityContext of its own (k8s.io/kubernetes securitycontext). */
const KUBELET_MASKED_PATHS = ['/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap'];
const KUBELET_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

export async function crictlFor(bin: string, endpoint: string, dir: string, image: string, tag: string, shape: ConfigShape = 'kubelet'): Promise<Crictl> {
  const config = join(dir, `crictl-${tag}.yaml`);
  await writeFile(config, `runtime-endpoint: ${endpoint}\nimage-endpoint: ${endpoint}\ntimeout: 120\n`);
  return {
    async call(args) {
      const t0 = performance.now();
      const r = await run(bin, ['--config', config, ...args], { check: false, timeoutMs: 300_000 });
      const ms = performance.now() - t0;
      if (r.code !== 0) throw new Error(`crictl ${args[0]} (${tag}) exited ${r.code}: ${r.stderr.trim().split('\n').pop()?.slice(0, 300)}`);
      return { out: r.stdout.trim(), ms };
    },
    async configs(name, labels = {}) {
      const uid = `${tag}-${name}-${process.pid}`;
      const podName = `checkout-frontend-7d9f8c6b5d-${name}`;
      const pod = join(dir, `${tag}-${name}-pod.json`);
      const ctr = join(dir, `${tag}-${name}-ctr.json`);
      await writeFile(pod, JSON.stringify({
        metadata: { name: podName, namespace: 'bench', uid, attempt: 0 },
        hostname: podName,
        log_directory: join(dir, 'logs', `bench_${podName}_${uid}`),
        labels: { 'io.kubernetes.pod.name': podName, 'io.kubernetes.pod.namespace': 'bench', 'io.kubernetes.pod.uid': uid, bench: tag, ...labels },
        linux: { security_context: { namespace_options: { network: 0, pid: 1, ipc: 0 } } },
      }));
      const kubelet = shape === 'kubelet';
      await writeFile(ctr, JSON.stringify({
        metadata: { name: 'app', attempt: 0 },
        image: { image },
        command: ['sleep', '3600'],
        log_path: 'app/0.log',
        labels: { 'io.kubernetes.container.name': 'app', 'io.kubernetes.pod.name': podName, 'io.kubernetes.pod.namespace': 'bench', 'io.kubernetes.pod.uid': uid },
        ...(kubelet ? {
          envs: [{ key: 'KUBERNETES_SERVICE_HOST', value: '10.96.0.1' }, { key: 'KUBERNETES_SERVICE_PORT', value: '443' }, { key: 'KUBERNETES_PORT', value: 'tcp://10.96.0.1:443' }],
          annotations: { 'io.kubernetes.container.hash': 'c6d4a2b1', 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log', 'io.kubernetes.container.terminationMessagePolicy': 'File', 'io.kubernetes.pod.terminationGracePeriod': '30' },
          linux: {
            resources: { cpu_period: 100000, cpu_quota: 50000, cpu_shares: 102, memory_limit_in_bytes: 128 << 20, oom_score_adj: 998 },
            security_context: {
              namespace_options: { network: 0, pid: 1, ipc: 0 },
              seccomp: { profile_type: 0 },
              masked_paths: KUBELET_MASKED_PATHS,
              readonly_paths: KUBELET_READONLY_PATHS,
              run_as_user: { value: 0 },
            },
          },
        } : { linux: {} }),
      }));
      return { pod, ctr };
    },
  };
}

export const CRICTL_STEPS = ['runp', 'create', 'start', 'rmp'] as const;
export type CrictlStep = (typeof CRICTL_STEPS)[number];

/** `crictl run c.json p.json` (image check, RunPodSandbox, CreateContainer, StartContainer), then `crictl rmp -f`. */
export async function crictlRunThenRmp(c: Crictl, name: string): Promise<{ run: number; rmp: number }> {
  const { pod, ctr } = await c.configs(name);
  const r = await c.call(['run', ctr, pod]);
  // Not timed: which pod `run` made (it prints the container's ID only).
  const podId = (await c.call(['pods', '-q', '--name', `^checkout-frontend-7d9f8c6b5d-${name}$`])).out;
  if (!/^[0-9a-f]+$/.test(podId)) throw new Error(`crictl run ${name}: no single pod found (${podId.slice(0, 100)})`);
  const rm = await c.call(['rmp', '-f', podId]);
  return { run: r.ms, rmp: rm.ms };
}

/** The same pod step by step, a crictl process per step. */
export async function crictlSteps(c: Crictl, name: string): Promise<Record<CrictlStep, number>> {
  const { pod, ctr } = await c.configs(name);
  const runp = await c.call(['runp', pod]);
  const create = await c.call(['create', runp.out, ctr, pod]);
  const start = await c.call(['start', create.out]);
  const rmp = await c.call(['rmp', '-f', runp.out]);
  return { runp: runp.ms, create: create.ms, start: start.ms, rmp: rmp.ms };
}
