// The engine's view of an OCI runtime. The runc + conmon implementation lives
// in runc-conmon.ts; tests and other runtimes can supply their own.
import type { StreamIO } from '../../api/cri-service.js';
import type { CgroupStats, LinuxResourcesUpdate } from './cgroups.js';

export type OciStatus = 'creating' | 'created' | 'running' | 'stopped' | 'paused';

export interface OciState {
  id: string;
  pid: number;
  status: OciStatus;
  bundle?: string;
}

export interface CreateOptions {
  id: string;
  bundle: string;
  /** Container name for the monitor's logs. */
  name?: string;
  /** CRI-format log file; undefined for none. */
  logPath?: string;
  logSizeMax?: number;
  tty: boolean;
  stdin: boolean;
  stdinOnce: boolean;
  /** The pause container runs without a monitor (runc directly, detached). */
  monitor: boolean;
  /**
   * Restore from CRIU images in this dir (`runc restore` under the monitor) instead of creating:
   * the container is running once create returns, so no start follows.
   */
  restoreFrom?: string;
}

export interface CheckpointOptions {
  /** Where CRIU writes its images (made by the caller). */
  imagePath: string;
  /** Where CRIU writes dump.log and stats-dump. */
  workPath: string;
  /** The container keeps running (kubelet's forensic checkpoint). */
  leaveRunning: boolean;
}

export interface ExitInfo {
  exitCode: number;
  /** Nanoseconds since the epoch as a decimal string. */
  finishedAt: string;
  oomKilled: boolean;
}

/** The OCI runtime spec's `process` object (only what exec needs typed). */
export interface OciProcess {
  terminal?: boolean;
  args: string[];
  env?: string[];
  cwd: string;
  user: { uid: number; gid: number; additionalGids?: number[] };
  [key: string]: unknown;
}

export interface ExecSyncResult {
  exitCode: number;
  stdout: Buffer;
  stderr: Buffer;
  timedOut: boolean;
  /** Ended because `signal` aborted (its caller has gone), not by its timeout. */
  cancelled?: boolean;
}

export interface ExecSyncOptions {
  timeoutMs?: number;
  maxOutput: number;
  /** Aborting ends the exec'd process tree, as its timeout does. */
  signal?: AbortSignal;
}

export interface OciRuntime {
  create(opts: CreateOptions): Promise<{ pid: number }>;
  /** `initPid`: the created container's init (create's answer), which lets a runtime skip its own start command. */
  start(id: string, initPid?: number): Promise<void>;
  kill(id: string, signal: string | number, all?: boolean): Promise<void>;
  delete(id: string, force?: boolean): Promise<void>;
  /** undefined when the runtime does not know the container. */
  state(id: string): Promise<OciState | undefined>;
  /** Whether the runtime has the container at all, told from its state dir (no process). */
  known(id: string): Promise<boolean>;
  exec(id: string, process: OciProcess, opts: ExecSyncOptions): Promise<ExecSyncResult>;
  execStream(id: string, process: OciProcess, io: StreamIO, opts: { stdin: boolean }): Promise<number>;
  attach(id: string, bundle: string, io: StreamIO): Promise<void>;
  resize(bundle: string, width: number, height: number): Promise<void>;
  reopenLog(bundle: string): Promise<void>;
  update(id: string, cgroupsPath: string, resources: LinuxResourcesUpdate): Promise<void>;
  /**
   * Limits for a cgroup no container owns (a pod's cgroup): checked against
   * this host's cgroups now (throws on what they cannot take), written to
   * the files, all or nothing, when the returned function runs.
   */
  planCgroupUpdate(cgroupPath: string, resources: LinuxResourcesUpdate): () => Promise<void>;
  stats(cgroupsPath: string): Promise<CgroupStats | undefined>;
  pause(id: string): Promise<void>;
  /** `runc checkpoint`: the container's processes dumped by CRIU. */
  checkpoint(id: string, opts: CheckpointOptions): Promise<void>;
  resume(id: string): Promise<void>;
  /** What the monitor recorded when the container exited; undefined while it runs. */
  exitInfo(id: string, bundle: string): Promise<ExitInfo | undefined>;
  /** Process list inside the container (pids). */
  pids(id: string): Promise<number[]>;
  /** Removes what the monitor left of a deleted container outside its bundle (idempotent). */
  release(id: string): Promise<void>;
  /** Removes monitor leftovers whose container or exec session is gone (recovery). */
  sweep(): Promise<void>;
}
