// CRI requests shaped as kubelet (1.28–1.31, cgroupfs driver) sends them for a
// burstable pod: `<name>-<node>` pod names with a uuid uid, the
// io.kubernetes.* labels and annotations, a log directory
// `<logRoot>/<ns>_<name>_<uid>/`, a cgroup parent /kubepods/burstable/pod<uid>,
// cluster DNS, container port mappings, hugepage limits for every page size of
// the node (limit 0), oom_score_adj and CFS values computed from requests and
// limits, the default masked and read-only paths. Fields are lowerCamelCase
// (the engine's and the rig's gRPC client's form); int64 as strings.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/** kubelet's default masked paths (k8s.io/kubernetes/pkg/securitycontext). */
export const KUBELET_MASKED_PATHS = [
  '/proc/asound', '/proc/acpi', '/proc/kcore', '/proc/keys', '/proc/latency_stats', '/proc/timer_list',
  '/proc/timer_stats', '/proc/sched_debug', '/proc/scsi', '/sys/firmware', '/sys/devices/virtual/powercap',
];
export const KUBELET_READONLY_PATHS = ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'];

/** What kubelet sends with every container of a node that has 2Mi and 1Gi pages. */
export const KUBELET_HUGEPAGE_LIMITS = [{ pageSize: '2MB', limit: '0' }, { pageSize: '1GB', limit: '0' }];

/** requests cpu 100m / memory 64Mi, limits cpu 500m / memory 128Mi on a node of 24 GiB. */
export const KUBELET_BURSTABLE_RESOURCES = {
  cpuPeriod: '100000',
  cpuQuota: '50000',
  cpuShares: '102',
  memoryLimitInBytes: String(128 * 1024 * 1024),
  oomScoreAdj: '998',
  hugepageLimits: KUBELET_HUGEPAGE_LIMITS,
  unified: {},
  memorySwapLimitInBytes: '0',
};

export interface KubeletPod {
  name: string;
  namespace: string;
  uid: string;
  /** `/kubepods/burstable/pod<uid>` */
  cgroupParent: string;
  /** `<logRoot>/<ns>_<name>_<uid>` */
  logDirectory: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  config: Record<string, any>;
}

/** A burstable pod as kubelet's RunPodSandbox carries it. */
export function kubeletPod(o: { app: string; node: string; namespace?: string; logRoot: string; attempt?: number }): KubeletPod {
  const namespace = o.namespace ?? 'default';
  const uid = randomUUID();
  const name = `${o.app}-${o.node}`;
  const cgroupParent = `/kubepods/burstable/pod${uid}`;
  const logDirectory = join(o.logRoot, `${namespace}_${name}_${uid}`);
  return {
    name, namespace, uid, cgroupParent, logDirectory,
    config: {
      metadata: { name, uid, namespace, attempt: o.attempt ?? 0 },
      hostname: name,
      logDirectory,
      dnsConfig: {
        servers: ['10.96.0.10'],
        searches: [`${namespace}.svc.cluster.local`, 'svc.cluster.local', 'cluster.local'],
        options: ['ndots:5'],
      },
      portMappings: [
        { protocol: 'TCP', containerPort: 8080, hostPort: 0, hostIp: '' },
        { protocol: 'UDP', containerPort: 5353, hostPort: 0, hostIp: '' },
      ],
      labels: {
        app: o.app,
        'io.kubernetes.pod.name': name,
        'io.kubernetes.pod.namespace': namespace,
        'io.kubernetes.pod.uid': uid,
        'pod-template-hash': '7d9f8b6c5d',
      },
      annotations: {
        'kubernetes.io/config.seen': new Date().toISOString(),
        'kubernetes.io/config.source': 'api',
      },
      linux: {
        cgroupParent,
        securityContext: {
          namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' },
          seccomp: { profileType: 'RuntimeDefault' },
        },
        overhead: {},
        resources: { cpuPeriod: '100000', cpuQuota: '50000', cpuShares: '102', memoryLimitInBytes: String(128 * 1024 * 1024), unified: {} },
        sysctls: {},
      },
    },
  };
}

/** A container of `pod` as kubelet's CreateContainer carries it (log path `<name>/<attempt>.log`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function kubeletContainer(pod: KubeletPod, o: { name: string; image: string; command: string[]; attempt?: number; resources?: Record<string, unknown>; terminationLog?: string }): Record<string, any> {
  const attempt = o.attempt ?? 0;
  return {
    metadata: { name: o.name, attempt },
    image: { image: o.image, userSpecifiedImage: o.image },
    command: o.command,
    args: [],
    workingDir: '',
    envs: [
      { key: 'KUBERNETES_SERVICE_HOST', value: '10.96.0.1' },
      { key: 'KUBERNETES_SERVICE_PORT', value: '443' },
      { key: 'KUBERNETES_PORT', value: 'tcp://10.96.0.1:443' },
    ],
    mounts: o.terminationLog
      ? [{ containerPath: '/dev/termination-log', hostPath: o.terminationLog, readonly: false, selinuxRelabel: false, propagation: 'PROPAGATION_PRIVATE' }]
      : [],
    labels: {
      'io.kubernetes.container.name': o.name,
      'io.kubernetes.pod.name': pod.name,
      'io.kubernetes.pod.namespace': pod.namespace,
      'io.kubernetes.pod.uid': pod.uid,
    },
    annotations: {
      'io.kubernetes.container.hash': 'c6d4a2b1',
      'io.kubernetes.container.restartCount': String(attempt),
      'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
      'io.kubernetes.container.terminationMessagePolicy': 'File',
      'io.kubernetes.pod.terminationGracePeriod': '30',
    },
    logPath: `${o.name}/${attempt}.log`,
    stdin: false,
    stdinOnce: false,
    tty: false,
    linux: {
      resources: o.resources ?? KUBELET_BURSTABLE_RESOURCES,
      securityContext: {
        namespaceOptions: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' },
        seccomp: { profileType: 'RuntimeDefault' },
        maskedPaths: KUBELET_MASKED_PATHS,
        readonlyPaths: KUBELET_READONLY_PATHS,
        runAsUser: { value: '0' },
      },
    },
  };
}

/** The cgroupfs controllers of this host (cgroup v1 dirs under /sys/fs/cgroup, or '' for v2). */
export const CGROUP_V1_CONTROLLERS = ['cpu', 'cpuacct', 'cpuset', 'memory', 'devices', 'freezer', 'blkio', 'pids', 'systemd', 'hugetlb', 'net_cls', 'perf_event', 'net_prio', 'unified', ''];

const KUBEPODS_LEVELS = ['/kubepods/burstable', '/kubepods'];

/** The /kubepods levels that exist now (take it before a test; removeKubeletPodCgroup keeps them). */
export function kubepodsLevelsPresent(): Set<string> {
  return new Set(KUBEPODS_LEVELS.filter((l) => CGROUP_V1_CONTROLLERS.some((c) => existsSync(join('/sys/fs/cgroup', c, l)))));
}

/**
 * Removes the pod's cgroup (kubelet's job, not the runtime's) and the /kubepods levels above it
 * that were not there before the test (`existedBefore`), in every hierarchy. Non-empty ones stay.
 */
export async function removeKubeletPodCgroup(pod: KubeletPod, existedBefore: ReadonlySet<string>): Promise<void> {
  for (const level of [pod.cgroupParent, ...KUBEPODS_LEVELS]) {
    if (existedBefore.has(level)) break;
    for (const c of CGROUP_V1_CONTROLLERS) await rmdir(join('/sys/fs/cgroup', c, level)).catch(() => undefined);
  }
}

/**
 * The hostname kubelet's RunPodSandbox carries (GeneratePodHostNameAndDomain, then
 * GetNodenameForKernel): the pod's hostname or name cut to 63 characters, and with a subdomain
 * and setHostnameAsFQDN, `<hostname>.<subdomain>.<namespace>.svc.<cluster domain>`, which ends
 * in a dot when the node has no cluster domain (node e2e's default). kubelet refuses an FQDN
 * over 64 characters itself. `domain` is what kubelet's /etc/hosts names next to the short name.
 */
export function kubeletHostname(o: { podName: string; namespace: string; hostname?: string; subdomain?: string; clusterDomain?: string; setHostnameAsFQDN?: boolean }): { hostname: string; short: string; domain: string } {
  let short = o.hostname || o.podName;
  if (short.length > 63) short = short.slice(0, 63).replace(/[-.]+$/, '');
  const domain = o.subdomain ? `${o.subdomain}.${o.namespace}.svc.${o.clusterDomain ?? ''}` : '';
  if (!o.setHostnameAsFQDN || !domain) return { hostname: short, short, domain };
  const fqdn = `${short}.${domain}`;
  if (fqdn.length > 64) throw new Error(`kubelet refuses FQDN ${fqdn}: ${fqdn.length} characters, at most 64`);
  return { hostname: fqdn, short, domain };
}

/** The /etc/hosts kubelet writes for a pod that is not on the host network (managedHostsFileContent). */
export function kubeletHostsFile(ip: string, short: string, domain: string): string {
  const own = domain ? `${ip}\t${short}.${domain}\t${short}` : `${ip}\t${short}`;
  return [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
    own,
    '',
  ].join('\n');
}

/**
 * A small kubelet-shaped pod for the crash and fault tests: kubelet's name/uid/log-directory,
 * io.kubernetes.* labels and annotations, under the test's own cgroup parent. `pid` POD shares a
 * pid namespace (a pause container), CONTAINER does not; `namespaceOptions` adds to kubelet's.
 */
export function testPod(o: { name: string; namespace: string; logRoot: string; cgroupParent: string; pid: 'POD' | 'CONTAINER'; namespaceOptions?: Record<string, unknown> }): Record<string, any> {
  const uid = randomUUID();
  return {
    metadata: { name: o.name, namespace: o.namespace, uid, attempt: 0 },
    hostname: o.name.slice(0, 40),
    logDirectory: join(o.logRoot, `${o.namespace}_${o.name}_${uid}`),
    labels: { 'io.kubernetes.pod.name': o.name, 'io.kubernetes.pod.namespace': o.namespace, 'io.kubernetes.pod.uid': uid },
    annotations: { 'kubernetes.io/config.source': 'api', 'kubernetes.io/config.seen': new Date().toISOString() },
    linux: { cgroupParent: `/${o.cgroupParent}`, securityContext: { namespaceOptions: { network: 0, pid: o.pid === 'POD' ? 0 : 1, ipc: 0, ...o.namespaceOptions } } },
  };
}

/** A container of `testPod` as kubelet labels it, logging to `<name>/0.log`; `labels` add to kubelet's, `extra` to the config. */
export function testContainer(pod: Record<string, any>, o: { name: string; image: string; command: string[]; labels?: Record<string, string>; extra?: Record<string, unknown> }): Record<string, any> {
  const meta = pod.metadata as { name: string; namespace: string; uid: string };
  return {
    metadata: { name: o.name, attempt: 0 },
    image: { image: o.image },
    command: o.command,
    logPath: `${o.name}/0.log`,
    labels: { 'io.kubernetes.container.name': o.name, 'io.kubernetes.pod.name': meta.name, 'io.kubernetes.pod.namespace': meta.namespace, 'io.kubernetes.pod.uid': meta.uid, ...o.labels },
    annotations: { 'io.kubernetes.container.restartCount': '0', 'io.kubernetes.container.terminationMessagePath': '/dev/termination-log' },
    ...o.extra,
  };
}

/** The crash tests' app container resources (a burstable pod's shares, a 64 MiB limit). */
export const TEST_APP_RESOURCES = { cpuShares: 102, memoryLimitInBytes: 64 * 1024 * 1024, oomScoreAdj: 1000 };
