// The CRI config of a container restored from a checkpoint archive (CreateContainer whose
// image.image is the archive's path, as CRI-O's restore takes it). The base is what the container
// was made from: our archives carry its CRI config, other runtimes' give the process from
// spec.dump. The request then names the new container: its metadata, labels, mounts, log path,
// resources and security context win, and its annotations go over the old ones (kubelet's
// container hash must be the new one). The image is the checkpointed container's base image.
// As CRI-O, every bind mount of the dumped spec must be a mount of the new container: a restore
// never mounts a host path the request did not ask for, and CRIU needs each one to restore.
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';
import type { ConfigDump } from './archive-layout.js';
import type { OciSpecDump } from './checkpoint-archive.js';

/** Mounts the runtime makes itself for every container (they are not the request's to give). */
const RUNTIME_MOUNTS = new Set([
  '/proc', '/dev', '/dev/pts', '/dev/mqueue', '/sys', '/sys/fs/cgroup', '/dev/shm',
  '/etc/resolv.conf', '/etc/hostname', '/etc/hosts', '/run/secrets', '/run/.containerenv',
]);

export interface ArchivedContainer {
  spec: OciSpecDump;
  config: ConfigDump;
  /** The CRI config it was made from (isulats archives only). */
  criConfig?: cri.ContainerConfigIn;
}

/** The image a restore runs on: the checkpointed container's, by name, else by ID. */
export function archivedImage(a: ArchivedContainer): string {
  const image = a.config.rootfsImageName || a.criConfig?.image?.image || a.config.rootfsImage || a.config.rootfsImageRef;
  if (!image) throw invalidArgument('checkpoint archive: config.dump names no image (rootfsImageName, rootfsImageRef)');
  return image;
}

export function restoredConfig(archive: string, a: ArchivedContainer, request: cri.ContainerConfigIn): cri.ContainerConfigIn {
  const base: cri.ContainerConfigIn = a.criConfig ?? fromSpec(a.spec);
  const req = request;
  const config: cri.ContainerConfigIn = {
    ...base,
    metadata: req.metadata?.name ? req.metadata : base.metadata,
    image: { image: archivedImage(a) },
    labels: req.labels && Object.keys(req.labels).length ? req.labels : base.labels,
    annotations: { ...(base.annotations ?? {}), ...(req.annotations ?? {}) },
    mounts: req.mounts?.length ? req.mounts : base.mounts,
    logPath: req.logPath || logPathFor(base, req),
    linux: {
      ...(base.linux ?? {}),
      ...(req.linux?.resources ? { resources: req.linux.resources } : {}),
      ...(req.linux?.securityContext ? { securityContext: req.linux.securityContext } : {}),
    },
  };
  const missing = (a.spec.mounts ?? [])
    .filter((m) => (m.type === 'bind' || m.options?.includes('bind') || m.options?.includes('rbind')) && !RUNTIME_MOUNTS.has(m.destination))
    .map((m) => m.destination)
    .filter((dest) => !(config.mounts ?? []).some((m) => m.containerPath === dest));
  if (missing.length) throw invalidArgument(`restoring ${archive} expects these bind mounts in the container config: ${missing.join(', ')}`);
  return config;
}

/**
 * Without a log path in the request (not kubelet's: `isulats restore`), a restore under another
 * name logs to `<name>/<attempt>.log`: the checkpointed container may still run in the same pod
 * and log to its own path.
 */
function logPathFor(base: cri.ContainerConfigIn, req: cri.ContainerConfigIn): string | undefined {
  const name = req.metadata?.name;
  if (!name || name === base.metadata?.name || !base.logPath) return base.logPath;
  return `${name}/${Number(req.metadata?.attempt ?? 0)}.log`;
}

/** A CRI config equal in process to the dumped spec (archives of other runtimes). */
function fromSpec(spec: OciSpecDump): cri.ContainerConfigIn {
  const p = spec.process ?? {};
  return {
    command: p.args ?? [],
    args: [],
    workingDir: p.cwd ?? '',
    envs: (p.env ?? []).map((e) => {
      const eq = e.indexOf('=');
      return eq < 0 ? { key: e, value: '' } : { key: e.slice(0, eq), value: e.slice(eq + 1) };
    }),
    tty: !!p.terminal,
  };
}
