// CreateContainer from a checkpoint archive: where CRIU can run, the archive is unpacked into a
// dir of the new container's (<root>/restores/<id>.<pid>: CRIU's images wait there for
// StartContainer's `runc restore`, and go after it or with the container) and the container's config is worked out from it (restore-config.ts).
import { copyFileSync, existsSync, lstatSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type * as cri from '../../api/cri.js';
import { restoreUnavailable } from '../oci/criu.js';
import { processRuns } from '../container/exit-wait.js';
import { cgroupfsPathOf } from '../oci/systemd-cgroup.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { joinPath } from '../store/path-join.js';
import { CONTAINER_LOG, CRI_CONFIG } from './archive-layout.js';
import { readArchiveJson, readDumps, unpackArchive } from './checkpoint-archive.js';
import { restoredConfig } from './restore-config.js';

/** Under the root: one dir per container made from an archive, until its restore has run. */
export const RESTORES_DIR = 'restores';

/**
 * Unpacked archives nobody will restore: their container's record is gone (removed, or its creator
 * died before writing it) and the process that unpacked them is gone too.
 */
export async function removeOrphanRestores(root: string, known: (id: string) => Promise<boolean>): Promise<void> {
  const base = joinPath(root, RESTORES_DIR);
  for (const name of await readdir(base).catch(() => [] as string[])) {
    const m = /^([0-9a-f]{64})\.(\d+)$/.exec(name);
    if (!m || (await known(m[1]!)) || processRuns(Number(m[2]))) continue;
    await rm(joinPath(base, name), { recursive: true, force: true });
  }
}

/** An image name that is an existing file's absolute path: a checkpoint archive (image refs never start with "/"). */
export function isCheckpointArchivePath(image: string): boolean {
  if (!isAbsolute(image)) return false;
  try {
    return statSync(image).isFile();
  } catch {
    return false;
  }
}

export interface RestoreSource {
  archive: string;
  dir: string;
  config: cri.ContainerConfigIn;
}

export async function openRestore(ctx: { runner: ProcessRunner; paths: { root: string } }, archive: string, request: cri.ContainerConfigIn, id: string): Promise<RestoreSource> {
  const unavailable = await restoreUnavailable(ctx.runner, archive);
  if (unavailable) throw unavailable;
  // Named with the creating process: recovery tells a dir whose creator died before the record was written.
  const dir = joinPath(ctx.paths.root, RESTORES_DIR, `${id}.${process.pid}`);
  try {
    await unpackArchive(archive, dir);
    const { spec, config } = readDumps(dir);
    const criConfig = readArchiveJson<cri.ContainerConfigIn>(dir, CRI_CONFIG, false);
    return { archive, dir, config: restoredConfig(archive, { spec, config, criConfig }, request) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The archived log, put where the new container logs (a link or other non-file is left out). */
export function copyArchivedLog(dir: string, logPath: string): void {
  const log = joinPath(dir, CONTAINER_LOG);
  if (existsSync(log) && lstatSync(log).isFile()) copyFileSync(log, logPath);
}

/**
 * The CRIU config file a restored container's spec names (runc reads annotation org.criu.config;
 * the file's settings win over runc's): on cgroup v2, `cgroup-root` is the new container's cgroup.
 * runc 1.1 passes CRIU no cgroup root on v2 (runc 1.2 does), so CRIU would put the restored
 * processes back in the checkpointed container's cgroup, and the new systemd scope, left empty when
 * CRIU exits, would go. The node's own /etc/criu/runc.conf, which the annotation replaces, comes first.
 */
export function writeRestoreCriuConfig(bundle: string, cgroupsPath: string, cgroupRoot = '/sys/fs/cgroup'): string {
  const file = joinPath(bundle, 'criu-restore.conf');
  let text = '';
  try {
    text = readFileSync('/etc/criu/runc.conf', 'utf8');
    if (text && !text.endsWith('\n')) text += '\n';
  } catch {
    // No node-wide settings.
  }
  if (existsSync(joinPath(cgroupRoot, 'cgroup.controllers'))) text += `cgroup-root ${cgroupfsPathOf(cgroupsPath)}\n`;
  writeFileSync(file, text, { mode: 0o600 });
  return file;
}
