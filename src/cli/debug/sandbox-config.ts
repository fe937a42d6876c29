// The pod's config, as CreateContainer wants it beside the container's:
// kubelet always sends it, and some runtimes depend on it (containerd 1.6
// dereferences its metadata, and takes the log directory from it). CRI has no
// call that returns it whole, so it is rebuilt from PodSandboxStatus: its
// metadata, labels, annotations and namespaces, plus the log directory and
// cgroup parent from the verbose info, where runtimes (containerd, isulats)
// put the config they were given (snake_case from Go, camelCase from us).
import type * as cri from '../../api/cri.js';

export function sandboxConfigFromStatus(r: Pick<cri.PodSandboxStatusResponse, 'status' | 'info'>): cri.PodSandboxConfigIn {
  const st = r.status;
  const given = givenConfig(r.info);
  const linux = (given.linux ?? {}) as Record<string, unknown>;
  const cgroupParent = str(linux.cgroupParent ?? linux.cgroup_parent);
  return {
    metadata: st?.metadata ?? undefined,
    labels: st?.labels ?? {},
    annotations: st?.annotations ?? {},
    logDirectory: str(given.logDirectory ?? given.log_directory),
    linux: {
      cgroupParent,
      securityContext: { namespaceOptions: st?.linux?.namespaces?.options ?? undefined },
    },
  };
}

function givenConfig(info: Record<string, string>): Record<string, unknown> {
  try {
    const doc = JSON.parse(info.info ?? '{}') as { config?: unknown };
    return doc.config && typeof doc.config === 'object' ? (doc.config as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
