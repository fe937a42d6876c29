// CheckpointContainer's work: the container paused (its files then match the dumped processes,
// as CRI-O does it), `runc checkpoint --leave-running` into a work dir beside its record, its rw
// layer diffed and its log copied, resumed; then the metadata files written and everything packed
// into the archive at the location kubelet named. The container keeps running (kubelet's forensic
// checkpoint).
import { copyFileSync, existsSync, lstatSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type * as cri from '../../api/cri.js';
import type { ContainerRecord } from '../container/container-record.js';
import type { OciRuntime } from '../oci/oci-runtime.js';
import type { OverlaySnapshotter } from '../snapshot/overlay-snapshotter.js';
import { currentCreator } from '../recovery/creator.js';
import { joinPath } from '../store/path-join.js';
import {
  BIND_MOUNTS, CHECKPOINT_DIR, CONFIG_DUMP, CONTAINER_LOG, CRI_CONFIG, DELETED_FILES, GO_ZERO_TIME, ROOTFS_DIFF_TAR, SPEC_DUMP, STATUS_DUMP,
  rfc3339Ns, type BindMountDump, type ConfigDump,
} from './archive-layout.js';
import { packArchive, type OciSpecDump } from './checkpoint-archive.js';
import { writeRootfsDiff } from './rootfs-diff.js';

export interface CheckpointInput {
  record: ContainerRecord;
  /** Its pod's metadata (the names checkpointctl shows). */
  pod: cri.PodSandboxMetadataIn;
  status: cri.ContainerStatus;
  oci: OciRuntime;
  snapshots: OverlaySnapshotter;
  /** A dir of the container's own, made afresh and removed after. */
  workDir: string;
  location: string;
  runtimeName: string;
}

/** The work dir's name in the container's object dir. */
export const CHECKPOINT_WORK_DIR = 'checkpoint-work';

/** In the work dir: who checkpoints (recovery resumes the container when that process died). */
export const CHECKPOINTER = 'checkpointer.json';

export async function writeCheckpoint(input: CheckpointInput): Promise<void> {
  const { record, oci, workDir } = input;
  await rm(workDir, { recursive: true, force: true });
  await mkdir(joinPath(workDir, CHECKPOINT_DIR), { recursive: true, mode: 0o700 });
  try {
    // Written before the pause: a work dir without it was never paused by its checkpointer.
    writeJson(workDir, CHECKPOINTER, currentCreator());
    const spec = JSON.parse(readFileSync(joinPath(record.bundle, 'config.json'), 'utf8')) as OciSpecDump;
    const snapshot = await input.snapshots.get(record.id);
    if (!snapshot) throw new Error(`container ${record.id} has no rootfs snapshot`);
    await oci.pause(record.id);
    let deleted: string[];
    try {
      await oci.checkpoint(record.id, { imagePath: joinPath(workDir, CHECKPOINT_DIR), workPath: workDir, leaveRunning: true });
      deleted = await writeRootfsDiff(
        { upperdir: snapshot.upperdir, lowerdirs: snapshot.lowerdirs, exclude: (spec.mounts ?? []).map((m) => m.destination) },
        joinPath(workDir, ROOTFS_DIFF_TAR),
      );
      // Still paused, and the dump took long enough for the monitor to drain what came before it:
      // the log ends where the dumped processes were. Copied after the resume, it would hold lines
      // the restored processes print again.
      if (record.logPath && existsSync(record.logPath) && lstatSync(record.logPath).isFile()) copyFileSync(record.logPath, joinPath(workDir, CONTAINER_LOG));
    } finally {
      await oci.resume(record.id);
    }
    rmSync(joinPath(workDir, CHECKPOINTER)); // not part of the archive
    if (deleted.length) writeJson(workDir, DELETED_FILES, deleted);
    writeJson(workDir, SPEC_DUMP, specDump(spec, record, input.pod));
    writeJson(workDir, CONFIG_DUMP, configDump(input));
    writeJson(workDir, STATUS_DUMP, input.status);
    writeJson(workDir, CRI_CONFIG, record.config);
    const binds = bindMounts(spec);
    if (binds.length) writeJson(workDir, BIND_MOUNTS, binds);
    await packArchive(workDir, input.location);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function writeJson(dir: string, name: string, value: unknown): void {
  writeFileSync(joinPath(dir, name), JSON.stringify(value, null, 2), { mode: 0o600 });
}

/**
 * config.json plus the annotations checkpointctl reads for a containerd archive (container, pod
 * and namespace names) and CRI-O's restore reads (the CRI annotations and labels as JSON).
 */
function specDump(spec: OciSpecDump, r: ContainerRecord, pod: cri.PodSandboxMetadataIn): OciSpecDump {
  return {
    ...spec,
    annotations: {
      ...(spec.annotations ?? {}),
      'io.kubernetes.cri.container-name': r.config.metadata?.name ?? '',
      'io.kubernetes.cri.sandbox-name': pod.name ?? '',
      'io.kubernetes.cri.sandbox-namespace': pod.namespace ?? '',
      'io.kubernetes.cri.sandbox-uid': pod.uid ?? '',
      'io.kubernetes.cri.image-name': r.imageName,
      'io.kubernetes.cri-o.Annotations': JSON.stringify(r.config.annotations ?? {}),
      'io.kubernetes.cri-o.Labels': JSON.stringify(r.config.labels ?? {}),
    },
  };
}

function configDump(input: CheckpointInput): ConfigDump {
  const r = input.record;
  return {
    id: r.id,
    name: r.name,
    rootfsImage: r.config.image?.image ?? r.imageName,
    rootfsImageRef: r.imageRef,
    rootfsImageName: r.imageName,
    runtime: input.runtimeName,
    createdTime: rfc3339Ns(r.createdAt),
    checkpointedTime: new Date().toISOString(),
    restoredTime: GO_ZERO_TIME,
    restored: false,
  };
}

/** CRI-O's bind.mounts: which sources are dirs and which files, so a restore elsewhere can make them. */
function bindMounts(spec: OciSpecDump): BindMountDump[] {
  const out: BindMountDump[] = [];
  for (const m of spec.mounts ?? []) {
    if (!(m.type === 'bind' || m.options?.includes('bind') || m.options?.includes('rbind')) || !m.source) continue;
    try {
      const st = statSync(m.source);
      out.push({ source: m.source, destination: m.destination, file_type: st.isDirectory() ? 'directory' : 'file', permissions: st.mode & 0o777 });
    } catch {
      // A source gone since the start: nothing to say about it.
    }
  }
  return out;
}
