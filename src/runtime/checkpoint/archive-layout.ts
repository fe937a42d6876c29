// The container checkpoint archive as kubelet's checkpoint API, CRI-O and containerd write it and
// checkpointctl reads it (checkpointctl/lib/metadata.go names the files): an uncompressed tar of
//   checkpoint/        CRIU's images (runc checkpoint --image-path)
//   config.dump        who and what was checkpointed (ContainerConfig below)
//   spec.dump          the container's OCI spec (config.json), with the containerd annotations
//                      checkpointctl shows and CRI-O's io.kubernetes.cri-o.Annotations
//   status.dump        the CRI ContainerStatus at the checkpoint (containerd writes it)
//   rootfs-diff.tar    what the container changed in its rootfs (CRI-O's form: the files as they
//                      are, no whiteouts), deleted.files the paths it removed (a JSON list)
//   bind.mounts        the bind mounts' sources and kinds (CRI-O recreates missing ones)
//   container.log      the container's log so far (containerd's name)
//   dump.log, stats-dump  CRIU's log and statistics
// plus one file of ours: the CRI ContainerConfig the container was made from, so a restore can
// make the same container without kubelet's help (other runtimes ignore it).

export const CHECKPOINT_DIR = 'checkpoint';
export const CONFIG_DUMP = 'config.dump';
export const SPEC_DUMP = 'spec.dump';
export const STATUS_DUMP = 'status.dump';
export const ROOTFS_DIFF_TAR = 'rootfs-diff.tar';
export const DELETED_FILES = 'deleted.files';
export const BIND_MOUNTS = 'bind.mounts';
export const CONTAINER_LOG = 'container.log';
export const DUMP_LOG = 'dump.log';
export const CRI_CONFIG = 'isulats.container-config.json';

/** config.dump: checkpointctl's ContainerConfig (a reduced copy of Podman's). Times are RFC 3339. */
export interface ConfigDump {
  id: string;
  name: string;
  rootfsImage?: string;
  rootfsImageRef?: string;
  rootfsImageName?: string;
  runtime?: string;
  createdTime: string;
  checkpointedTime: string;
  restoredTime: string;
  restored: boolean;
}

/** bind.mounts: CRI-O's ExternalBindMount. */
export interface BindMountDump {
  source: string;
  destination: string;
  file_type: 'directory' | 'file';
  permissions: number;
}

/** Go's zero time.Time, as encoding/json writes it. */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** Nanoseconds since the epoch (a decimal string) as RFC 3339 with nanoseconds, as Go writes time.Time. */
export function rfc3339Ns(ns: string): string {
  const n = BigInt(ns || '0');
  if (n <= 0n) return GO_ZERO_TIME;
  const ms = Number(n / 1_000_000n);
  const frac = (n % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}
