// ExecSync without `runc exec`: build/execsync/execsync (assets/execsync) joins the container's
// namespaces and cgroups and sets up the process as runc's setns init does, from runc's own state
// of the container (state.json, read, never written) and the exec's OCI process. runc's two Go
// processes per call were nearly all of a probe's CPU. Used for containers under runc only (a
// runc-compatible handler such as crun keeps its own exec), on hosts without SELinux, unless
// ISULATS_EXEC_SYNC=runc (read on every call) asks for `runc exec`.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { OciProcess } from '../oci/oci-runtime.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { joinPath } from '../store/path-join.js';
import { repoPath } from '../../util/repo-root.js';
import { parseProcStat } from '../recovery/creator.js';
import { execSyncPlan, type RuncState } from './exec-sync-plan.js';

export const EXECSYNC_BINARY = repoPath('build', 'execsync', 'execsync');

let usable: boolean | undefined;

/** Whether ExecSync in a container of this runtime binary goes through the helper. */
export function execSyncWithoutRunc(runtimePath: string): boolean {
  if (process.env.ISULATS_EXEC_SYNC === 'runc') return false;
  if (basename(runtimePath) !== 'runc') return false;
  // runc sets SELinux exec and key labels; the helper sets none.
  usable ??= existsSync(EXECSYNC_BINARY) && !existsSync('/sys/fs/selinux/enforce');
  return usable;
}

let lastCap: number | undefined;

function kernelLastCap(): number {
  lastCap ??= Number.parseInt(readFileSync('/proc/sys/kernel/cap_last_cap', 'utf8'), 10);
  return lastCap;
}

/** The start time (clock ticks since boot) of a process, from /proc/PID/stat; undefined when gone. */
function processStart(pid: number): number | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const stat = parseProcStat(text);
  return stat ? Number(stat.startTime) : undefined;
}

/** Whether the container's freezer cgroup (v1) or cgroup.freeze (v2) says frozen. */
function frozen(paths: Record<string, string>): boolean {
  const read = (file: string) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  };
  if (paths.freezer) return (read(joinPath(paths.freezer, 'freezer.state')) ?? 'THAWED') !== 'THAWED';
  return paths[''] !== undefined && read(joinPath(paths[''], 'cgroup.freeze')) === '1';
}

interface FilterEntry {
  start: number;
  filter: Promise<Buffer | undefined>;
}

/**
 * Plans ExecSyncs for one runc root. The seccomp filter is copied from the container's init (which
 * runc compiled from the same spec `runc exec` would compile it from) once per container, by the
 * helper's --seccomp mode: that stops the init for a moment under ptrace, so it is not per call.
 */
export class ExecSyncHelper {
  private readonly filters = new Map<string, FilterEntry>();

  constructor(private readonly runner: ProcessRunner, private readonly runcRoot: string) {}

  /**
   * The helper's plan for this exec, or why runc must run it (runc then also gives its own answer
   * for a missing state, a gone init or a paused container).
   */
  async plan(containerId: string, proc: OciProcess, pidFile: string): Promise<{ plan: Buffer } | { fallback: string }> {
    let state: RuncState;
    try {
      state = JSON.parse(readFileSync(joinPath(this.runcRoot, containerId, 'state.json'), 'utf8')) as RuncState;
    } catch {
      return { fallback: 'no runc state' };
    }
    const pid = state.init_process_pid;
    if (!(pid > 0) || processStart(pid) !== state.init_process_start) return { fallback: 'the container process is gone' };
    // runc exec refuses a paused container; its frozen init would also hold the filter copy.
    if (frozen(state.cgroup_paths ?? {})) return { fallback: 'a paused container' };
    let seccompFilter: Buffer | undefined;
    if (state.config.seccomp) {
      seccompFilter = await this.seccompFilter(containerId, pid, state.init_process_start);
      if (!seccompFilter) return { fallback: 'the seccomp filter of the container process could not be copied' };
    }
    return execSyncPlan({ containerId, state, process: proc, seccompFilter, pidFile, lastCap: kernelLastCap() });
  }

  /** Drops what is kept for a container (its filter copy). */
  forget(containerId: string): void {
    this.filters.delete(containerId);
  }

  private seccompFilter(containerId: string, pid: number, start: number): Promise<Buffer | undefined> {
    const known = this.filters.get(containerId);
    if (known?.start === start) return known.filter;
    const entry: FilterEntry = { start, filter: Promise.resolve(undefined) };
    entry.filter = this.runner
      .run({ cmd: EXECSYNC_BINARY, args: ['--seccomp', String(pid)], timeoutMs: 10_000, maxOutput: 1 << 20 })
      .then((r) => {
        if (r.code === 0 && r.stdout.length > 0 && r.stdout.length % 8 === 0) return r.stdout;
        // Exit 3: not exactly runc's one filter, which stays so (runc exec from now on). Any other
        // failure is tried again on the next exec.
        if (r.code !== 3 && this.filters.get(containerId) === entry) this.filters.delete(containerId);
        return undefined;
      }, () => {
        if (this.filters.get(containerId) === entry) this.filters.delete(containerId);
        return undefined;
      });
    this.filters.set(containerId, entry);
    return entry.filter;
  }
}
