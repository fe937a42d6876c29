// OciRuntime on runc (or any runc-compatible CLI: crun takes the same commands
// and flags), with Debian's conmon (2.1.6) as the per-container
// monitor: conmon double-forks away from the caller, holds the container's
// stdio, writes CRI-format logs and records the exit code, so containers
// outlive the CLI process that created them. The pause container runs under
// runc alone (`run -d`): it has no output worth logging and its exit code does
// not matter, so a monitor per pod would only cost memory.
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { lstat, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import type { StreamIO } from '../../api/cri-service.js';
import { internal, unavailable } from '../errors.js';
import { CgroupReader, type LinuxResourcesUpdate } from './cgroups.js';
import { applyCgroupWrites, cgroupWrites } from './cgroup-writer.js';
import type { CheckpointOptions, CreateOptions, ExecSyncOptions, ExecSyncResult, ExitInfo, OciProcess, OciRuntime, OciState } from './oci-runtime.js';
import { ProcessRunner } from './process-runner.js';
import { startConmon } from './conmon.js';
import { killProcessTree } from './process-tree.js';
import { timerDelay } from '../../util/timer-delay.js';
import { attachToConmon } from '../exec/attach-client.js';
import { execWithConmon } from '../exec/conmon-exec.js';
import { execWithConsole, TTYEXEC_BINARY, ttyExecWithoutConmon } from '../exec/tty-exec.js';
import { forwardOutput } from '../exec/forward-output.js';
import { writeExecScratch, type ExecScratch } from '../exec/exec-scratch.js';
import { EXECSYNC_BINARY, ExecSyncHelper, execSyncWithoutRunc } from '../exec/exec-sync-helper.js';
import { joinPath } from '../store/path-join.js';
import { kernelLogShowsOomKill, kmsgTimeAt } from './kernel-oom-log.js';
import { deleteLater } from '../store/trash.js';
import { startThroughExecFifo, startWithoutRunc } from './exec-fifo-start.js';

export interface RuncConmonOptions {
  runner: ProcessRunner;
  /** runc's --root (state dir). */
  runcRoot: string;
  /** Where conmon writes `<id>` exit files. */
  exitDir: string;
  /** conmon's --socket-dir-path (short: attach sockets are reached through it). */
  socketDir: string;
  runcPath?: string;
  /** Global options of this runtime, put before --root on every call. */
  runtimeArgs?: string[];
  conmonPath?: string;
  systemdCgroup?: boolean;
  cgroups?: CgroupReader;
  /** Detail for the debug log (runc's warnings on a failed create). */
  debug?: (message: string) => void;
  /** Problems worth a log line (the exec helper refusing a plan, so runc exec runs it). */
  warn?: (message: string) => void;
}

/** Margin around the container's run when matching kernel log timestamps (µs). */
const KMSG_SLACK_US = 30_000_000;

/** How long a runc command (or the start through its exec FIFO) may take. */
const RUNC_TIMEOUT_MS = 60_000;

/** The helper's own refusals of a plan (assets/execsync): the process never ran, runc exec can. */
const PLAN_REFUSED = /\bplan\b/;

export class RuncConmonRuntime implements OciRuntime {
  private readonly runc: string;
  private readonly conmon: string;
  private readonly cgroups: CgroupReader;
  private readonly execSyncHelper: ExecSyncHelper;

  constructor(private readonly opts: RuncConmonOptions) {
    this.runc = opts.runcPath ?? 'runc';
    this.conmon = opts.conmonPath ?? 'conmon';
    this.cgroups = opts.cgroups ?? new CgroupReader();
    this.execSyncHelper = new ExecSyncHelper(opts.runner, opts.runcRoot);
  }

  private base(): string[] {
    const args = [...(this.opts.runtimeArgs ?? []), '--root', this.opts.runcRoot];
    if (this.opts.systemdCgroup) args.push('--systemd-cgroup');
    return args;
  }

  async create(o: CreateOptions): Promise<{ pid: number }> {
    if (!o.monitor) return this.runDetached(o);
    // conmon records the exit status in the persist dir first and gives up if it is missing. Made on
    // the calling thread: a pool round trip would wait behind the fsyncs of pods starting meanwhile.
    mkdirSync(joinPath(o.bundle, 'persist'), { recursive: true });
    const args = [
      '--api-version', '1',
      '-c', o.id,
      '-u', o.id,
      '-n', o.name ?? o.id,
      '-r', await this.runcPath(),
      '-b', o.bundle,
      '-p', joinPath(o.bundle, 'pidfile'),
      '-P', joinPath(o.bundle, 'conmon.pid'),
      '-l', `k8s-file:${o.logPath ?? joinPath(o.bundle, 'console.log')}`,
      '--exit-dir', this.opts.exitDir,
      '--persist-dir', joinPath(o.bundle, 'persist'),
      '--socket-dir-path', this.opts.socketDir,
      '--log-level', 'error',
      ...(this.opts.runtimeArgs ?? []).flatMap((a) => ['--runtime-arg', a]),
      '--runtime-arg', '--root',
      '--runtime-arg', this.opts.runcRoot,
      // runc runs on the container's stdio: its own log lines (the systemd driver's "skipping
      // device" warnings) would land in the container's log. Its errors still go to stderr too,
      // which conmon reports on a failed create.
      '--runtime-arg', '--log-format=json',
      '--runtime-arg', '--log',
      '--runtime-arg', joinPath(o.bundle, 'runc.log'),
    ];
    if (this.opts.systemdCgroup) args.push('-s');
    if (o.tty) args.push('-t');
    if (o.stdin) args.push('-i');
    if (o.stdin && !o.stdinOnce) args.push('--leave-stdin-open');
    if (o.logSizeMax && o.logSizeMax > 0) args.push('--log-size-max', String(o.logSizeMax));
    // conmon runs `runc restore --detach --image-path <dir> --work-path <bundle>` instead of create;
    // runc hands the restored process conmon's pipes in place of the dumped ones (descriptors.json).
    if (o.restoreFrom) args.push('--restore', o.restoreFrom);
    try {
      const pid = await startConmon(this.opts.runner, this.conmon, args, joinPath(o.bundle, 'persist'), o.restoreFrom ? 600_000 : 60_000, this.opts.debug);
      return { pid };
    } catch (error) {
      if (!o.restoreFrom) throw error;
      // CRIU's own reason is in restore.log (its work dir is the bundle); runc only points there.
      const log = await readFile(joinPath(o.bundle, 'restore.log'), 'utf8').catch(() => '');
      const criuError = /^\([^)]*\) Error \([^)]*\):\s*(.+)$/m.exec(log)?.[1];
      throw criuError ? internal(`${(error as Error).message} (criu: ${criuError})`) : error;
    }
  }

  /** runc run -d for the pause container; runc's own errors go to a log file because it hands its stdio to the container. */
  private async runDetached(o: CreateOptions): Promise<{ pid: number }> {
    const logFile = joinPath(o.bundle, 'runc.log');
    const pidFile = joinPath(o.bundle, 'pidfile');
    // In a session of its own with stdio on /dev/null: the container's init inherits them.
    const { code } = await this.opts.runner.runDetached({
      cmd: this.runc,
      args: ['--log', logFile, '--log-format', 'json', ...this.base(), 'run', '-d', '--pid-file', pidFile, '--bundle', o.bundle, o.id],
    });
    if (code !== 0) {
      const log = await readFile(logFile, 'utf8').catch(() => '');
      throw internal(`runc run ${o.id} failed: ${lastRuncError(log)}`);
    }
    return { pid: Number.parseInt((await readFile(pidFile, 'utf8')).trim(), 10) };
  }

  /** conmon wants an absolute path: looked up on PATH once (a failed lookup is tried again next time). */
  private runcPath(): Promise<string> {
    this.resolvedRunc ??= this.lookUpRunc().catch((error: unknown) => {
      this.resolvedRunc = undefined;
      throw error;
    });
    return this.resolvedRunc;
  }

  private resolvedRunc?: Promise<string>;

  private async lookUpRunc(): Promise<string> {
    if (this.runc.startsWith('/')) return this.runc;
    for (const dir of (process.env.PATH ?? '/usr/sbin:/usr/bin').split(':')) {
      const candidate = joinPath(dir, this.runc);
      if (await stat(candidate).then((s) => s.isFile(), () => false)) return candidate;
    }
    throw unavailable(`${this.runc} not found on PATH`);
  }

  async known(id: string): Promise<boolean> {
    // Small metadata reads here and below are synchronous: each is cheaper than a thread-pool round trip.
    return existsSync(joinPath(this.opts.runcRoot, id));
  }

  async start(id: string, initPid?: number): Promise<void> {
    // runc's start is a read of the exec FIFO: done here, without a runc process (exec-fifo-start.ts).
    if (initPid && startWithoutRunc(this.runc)) {
      try {
        if (await startThroughExecFifo(joinPath(this.opts.runcRoot, id), initPid, RUNC_TIMEOUT_MS)) return;
      } catch (error) {
        throw internal(`runc start ${id}: ${(error as Error).message}`, error);
      }
    }
    await this.runcCheck(['start', id]);
  }

  async kill(id: string, signal: string | number, all = false): Promise<void> {
    const args = ['kill'];
    if (all) args.push('--all');
    const result = await this.opts.runner.run({ cmd: this.runc, args: [...this.base(), ...args, id, String(signal)], timeoutMs: 30_000 });
    if (result.code !== 0) {
      const err = result.stderr.toString();
      // Already stopped or gone: the caller's goal (not running) holds.
      if (/not running|does not exist|process already finished|no such process/i.test(err)) return;
      throw internal(`runc kill ${id}: ${err.trim()}`);
    }
  }

  async delete(id: string, force = false): Promise<void> {
    this.execSyncHelper.forget(id);
    const args = ['delete'];
    if (force) args.push('--force');
    const result = await this.opts.runner.run({ cmd: this.runc, args: [...this.base(), ...args, id], timeoutMs: 30_000 });
    if (result.code !== 0) {
      const err = result.stderr.toString();
      if (/does not exist|not exist/i.test(err)) return;
      throw internal(`runc delete ${id}: ${err.trim()}`);
    }
  }

  async state(id: string): Promise<OciState | undefined> {
    const result = await this.opts.runner.run({ cmd: this.runc, args: [...this.base(), 'state', id], timeoutMs: 30_000 });
    if (result.code !== 0) {
      if (/does not exist|not exist/i.test(result.stderr.toString())) return undefined;
      throw internal(`runc state ${id}: ${result.stderr.toString().trim()}`);
    }
    const s = JSON.parse(result.stdout.toString()) as { id: string; pid: number; status: OciState['status']; bundle?: string };
    return { id: s.id, pid: s.pid, status: s.status, bundle: s.bundle };
  }

  /**
   * How a non-TTY exec runs: under the execsync helper (its plan) when the helper can do all the
   * process asks for, under `runc exec` otherwise. Besides its cost, runc 1.1.5 gives an exec'd
   * process a soft RLIMIT_NOFILE raised to the hard one (its Go init races the limits it sets:
   * runc#4195); the helper gives the spec's exact limits.
   */
  private async execPlan(id: string, proc: OciProcess, token: string, viaRunc = false): Promise<{ spec: OciProcess; stateDir: string; helperPidFile: string; plan?: Buffer }> {
    const spec = { ...proc, terminal: false };
    const stateDir = joinPath(this.opts.runcRoot, id);
    const helperPidFile = joinPath(stateDir, `exec-${token}.pid`);
    const planned = !viaRunc && execSyncWithoutRunc(this.runc) ? await this.execSyncHelper.plan(id, spec, helperPidFile) : undefined;
    if (planned && 'fallback' in planned) this.opts.debug?.(`exec in ${id} runs under runc exec: ${planned.fallback}`);
    return { spec, stateDir, helperPidFile, plan: planned && 'plan' in planned ? planned.plan : undefined };
  }

  /** `viaRunc`: `runc exec` even where the helper could run it (the helper refused the plan). */
  async exec(id: string, proc: OciProcess, o: ExecSyncOptions, viaRunc = false): Promise<ExecSyncResult> {
    const token = `${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const { spec, stateDir, helperPidFile, plan } = await this.execPlan(id, proc, token, viaRunc);
    // runc exec's spec and pid file go beside runc's state, or off a full disk (exec-scratch.ts):
    // ExecSync must work to free space. The helper reads its plan from stdin and runs the process
    // even when its pid file cannot be written.
    const scratch: ExecScratch = plan
      ? { specFile: '', pidFile: helperPidFile, release: () => rmSync(helperPidFile, { force: true }) }
      : writeExecScratch(stateDir, token, JSON.stringify(spec));
    const { specFile, pidFile } = scratch;
    let expired = false;
    let cancelled = false;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const run = this.opts.runner.run({
        ...(plan
          ? { cmd: EXECSYNC_BINARY, args: [], input: plan }
          : { cmd: this.runc, args: [...this.base(), 'exec', '--process', specFile, '--pid-file', pidFile, id] }),
        // A backstop for a runc that hangs; the exec'd process is ended at o.timeoutMs below.
        timeoutMs: o.timeoutMs === undefined ? undefined : o.timeoutMs + EXEC_KILL_GRACE_MS,
        maxOutput: o.maxOutput,
      });
      // The process tree is killed while `runc exec` (or the helper) still lives, so it reaps its
      // child: killing runc first would orphan the process to the host's init, and a zombie that
      // init is slow to reap still shows in the container's `ps`/`pgrep` (critest's
      // execSync-with-timeout spec).
      const settled = run.then(() => true, () => true);
      if (o.timeoutMs !== undefined) {
        timer = setTimeout(() => {
          expired = true;
          void killOnceStarted(pidFile, id, settled);
        }, timerDelay(o.timeoutMs));
      }
      // A caller that has gone (cancelled, or past its deadline) ends the process the same way.
      onAbort = () => {
        if (expired) return;
        cancelled = true;
        void killOnceStarted(pidFile, id, settled);
      };
      if (o.signal?.aborted) onAbort();
      else o.signal?.addEventListener('abort', onAbort, { once: true });
      const result = await run.finally(() => clearTimeout(timer));
      if (result.timedOut) await killPidFile(pidFile, id);
      const timedOut = expired || result.timedOut;
      if (!timedOut && !cancelled && result.code !== 0 && !(await stat(pidFile).then(() => true, () => false))) {
        // No pid file: runc failed before the process ran (missing or non-executable binary, bad
        // cwd or user). That is an error of the call, as containerd reports it, not an exit code.
        const why = runcMessage(result.stderr.toString()) || `runc exec exited ${result.code}`;
        if (plan && PLAN_REFUSED.test(why)) {
          this.opts.warn?.(`exec in ${id}: the exec helper refused its plan (${why}); running it under runc exec`);
          return await this.exec(id, proc, o, true);
        }
        throw internal(`failed to exec in container ${id}: ${why}`);
      }
      return { exitCode: timedOut || cancelled ? -1 : result.code, stdout: result.stdout, stderr: result.stderr, timedOut, cancelled };
    } finally {
      if (onAbort) o.signal?.removeEventListener('abort', onAbort);
      scratch.release();
    }
  }

  async execStream(id: string, proc: OciProcess, io: StreamIO, opts: { stdin: boolean }): Promise<number> {
    if (io.tty) {
      const session = {
        runner: this.opts.runner,
        runcPath: await this.runcPath(),
        runcRoot: this.opts.runcRoot,
        runtimeArgs: this.opts.runtimeArgs,
        socketDir: this.opts.socketDir,
        sessionsDir: joinPath(this.opts.exitDir, '..', 'exec'),
        containerId: id,
        process: proc,
        io,
      };
      if (ttyExecWithoutConmon()) return execWithConsole({ ...session, helper: TTYEXEC_BINARY });
      return execWithConmon({ ...session, stdin: opts.stdin, conmon: this.conmon });
    }
    await io.opened;
    const token = `${process.pid}-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const { spec, stateDir, helperPidFile, plan } = await this.execPlan(id, proc, token);
    // The spec (or the helper's plan) beside runc's state, or off a full disk (exec-scratch.ts), as ExecSync's.
    const scratch = writeExecScratch(stateDir, token, plan ?? JSON.stringify(spec));
    const { specFile } = scratch;
    const pidFile = plan ? helperPidFile : scratch.pidFile;
    try {
      // Not child_process: a fork of the daemon per session held its event loop under a burst of execs.
      const child = await this.opts.runner.spawnPiped(plan
        ? { cmd: EXECSYNC_BINARY, args: ['--plan', specFile] }
        : { cmd: this.runc, args: [...this.base(), 'exec', '--process', specFile, '--pid-file', pidFile, id] });
      // The session's work ends with it: a client that went away (or was dropped for stopping
      // reading, at the streaming idle timeout) takes the process it started with it, killed while
      // runc still waits on it, as ExecSync's timeout kills.
      const settled = child.exited.then(() => true, () => true);
      void io.gone?.then(() => killOnceStarted(pidFile, id, settled));
      child.stdin.on('error', () => undefined);
      if (io.stdin) io.stdin.pipe(child.stdin);
      else child.stdin.end();
      forwardOutput(child.stdout, io.stdout);
      forwardOutput(child.stderr, io.stderr ?? io.stdout);
      // The exit status goes out after all the output: wait for both pipes to close, too.
      const [exit] = await Promise.all([child.exited, closed(child.stdout), closed(child.stderr)]);
      io.stdin?.unpipe(child.stdin);
      return exit.code;
    } finally {
      scratch.release();
      if (plan) rmSync(helperPidFile, { force: true });
    }
  }

  async attach(id: string, bundle: string, io: StreamIO): Promise<void> {
    await io.opened;
    // conmon links <socket dir>/<id> to the bundle so the socket path stays under 108 bytes.
    await attachToConmon({ socketPath: joinPath(this.opts.socketDir, id, 'attach'), io, resize: (w, h) => this.resize(bundle, w, h) });
  }

  async resize(bundle: string, width: number, height: number): Promise<void> {
    await writeControl(bundle, `1 ${height} ${width}\n`);
  }

  async reopenLog(bundle: string): Promise<void> {
    await writeControl(bundle, '2 0 0\n');
  }

  async update(id: string, _cgroupsPath: string, res: LinuxResourcesUpdate): Promise<void> {
    await this.runcCheck(['update', '--resources', '-', id], JSON.stringify(res));
  }

  planCgroupUpdate(cgroupPath: string, res: LinuxResourcesUpdate): () => Promise<void> {
    const writes = cgroupWrites(this.cgroups, cgroupPath, res);
    return () => applyCgroupWrites(writes);
  }

  async stats(cgroupsPath: string) {
    return this.cgroups.stats(cgroupsPath);
  }

  async pause(id: string): Promise<void> {
    await this.runcCheck(['pause', id]);
  }

  async resume(id: string): Promise<void> {
    await this.runcCheck(['resume', id]);
  }

  async checkpoint(id: string, o: CheckpointOptions): Promise<void> {
    // --file-locks as CRI-O passes it: a process holding a lock is dumped rather than refused.
    const args = ['checkpoint', '--file-locks', '--image-path', o.imagePath, '--work-path', o.workPath];
    if (o.leaveRunning) args.push('--leave-running');
    const result = await this.opts.runner.run({ cmd: this.runc, args: [...this.base(), ...args, id], timeoutMs: 600_000 });
    if (result.code !== 0 || result.timedOut) {
      // CRIU's own reason is in dump.log; runc says only that it failed and where to look.
      const dumpLog = await readFile(joinPath(o.workPath, 'dump.log'), 'utf8').catch(() => '');
      const criuError = /^\([^)]*\) Error \([^)]*\):\s*(.+)$/m.exec(dumpLog)?.[1];
      const why = runcMessage(result.stderr.toString()) || (result.timedOut ? 'timed out' : `exit ${result.code}`);
      throw internal(`runc checkpoint ${id}: ${why}${criuError ? ` (criu: ${criuError})` : ''}`);
    }
  }

  async exitInfo(id: string, bundle: string): Promise<ExitInfo | undefined> {
    const file = `${this.opts.exitDir}/${id}`; // every list refreshes each running container: no path.join
    let text: string;
    let mtimeNs: bigint;
    try {
      // A running container has no exit file: ask without an exception (costly, once per container per list).
      const st = statSync(file, { bigint: true, throwIfNoEntry: false });
      if (!st) return undefined;
      mtimeNs = st.mtimeNs;
      text = readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const code = Number.parseInt(text.trim(), 10);
    const oomFile = joinPath(bundle, 'persist', 'oom');
    let oomKilled = existsSync(oomFile);
    if (!oomKilled && code > 0 && this.opts.systemdCgroup) oomKilled = this.oomKillLogged(id, bundle, oomFile, mtimeNs);
    return { exitCode: Number.isNaN(code) ? 255 : code, finishedAt: mtimeNs.toString(), oomKilled };
  }

  /**
   * A failed container under the systemd driver without conmon's oom file: systemd removes the
   * emptied scope, often before conmon reads its memory.events, so the kernel's log is asked
   * (kernel-oom-log.ts; incremental, so an exit costs the records logged since the last one). As
   * conmon and containerd, an OOM kill of any of the container's processes counts, whatever the
   * exit code (137 when the init was the victim, a shell's own code when a child was). A hit is recorded as conmon would, so later reads (and a restarted daemon)
   * agree without another scan.
   */
  private oomKillLogged(id: string, bundle: string, oomFile: string, exitMtimeNs: bigint): boolean {
    const pidFile = joinPath(bundle, 'pidfile'); // written by runc create: its mtime is the start
    let pid: number;
    let startedMs: number;
    try {
      startedMs = statSync(pidFile).mtimeMs;
      pid = Number.parseInt(readFileSync(pidFile, 'utf8').trim(), 10);
    } catch {
      return false;
    }
    if (!(pid > 0)) return false;
    // The kmsg clock and this process's monotonic clock drift apart slowly (NTP slews one): a
    // margin either side; the pid rule also needs that pid's own OOM kill in the window.
    const fromUs = kmsgTimeAt(startedMs) - KMSG_SLACK_US;
    const toUs = kmsgTimeAt(Number(exitMtimeNs / 1_000_000n)) + KMSG_SLACK_US;
    if (!kernelLogShowsOomKill({ containerId: id, pid, fromUs, toUs })) return false;
    try {
      closeSync(openSync(oomFile, 'a'));
    } catch {
      // the answer stands; the next read scans again
    }
    return true;
  }

  async pids(id: string): Promise<number[]> {
    const result = await this.runcCheck(['ps', '--format', 'json', id]);
    return (JSON.parse(result.stdout.toString() || '[]') as number[] | null) ?? [];
  }

  async release(id: string): Promise<void> {
    // conmon links <socket dir>/<id> to the bundle and never removes the link. Nothing follows it
    // once the container is gone, so it goes after the answer (sweep() takes what a death left).
    deleteLater(joinPath(this.opts.socketDir, id));
  }

  async sweep(): Promise<void> {
    for (const name of await readdir(this.opts.socketDir).catch(() => [] as string[])) {
      const link = joinPath(this.opts.socketDir, name);
      const info = await lstat(link).catch(() => undefined);
      // A link whose bundle or exec session dir is gone serves nobody; live ones point at existing dirs.
      if (info?.isSymbolicLink() && !(await stat(link).then(() => true, () => false))) await rm(link, { force: true });
    }
  }

  private async runcCheck(args: string[], input?: string) {
    try {
      return await this.opts.runner.check({ cmd: this.runc, args: [...this.base(), ...args], input, timeoutMs: RUNC_TIMEOUT_MS });
    } catch (error) {
      throw internal((error as Error).message, error);
    }
  }
}

/**
 * Kills the exec'd process named in runc's pid file and everything it started; only while that
 * PID is still in the container's cgroup (never a host process that reused it).
 */
async function killPidFile(pidFile: string, containerId: string): Promise<void> {
  const pid = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
  if (!(pid > 0)) return;
  const cgroups = await readFile(`/proc/${pid}/cgroup`, 'utf8').catch(() => '');
  if (cgroups.includes(containerId)) await killProcessTree(pid);
}

/** How long `runc exec` gets to reap its killed process before it is killed itself. */
const EXEC_KILL_GRACE_MS = 5_000;

/**
 * Kills the exec'd process tree as soon as runc has written its pid file; polls (bounded) for a
 * runc still starting it, and gives up once the run has ended.
 */
async function killOnceStarted(pidFile: string, containerId: string, settled: Promise<boolean>): Promise<void> {
  // A run already over has nothing to kill, and its pid may be another process's by now: looked at
  // before the first read (an already-settled promise wins the race).
  if (await Promise.race([settled, Promise.resolve(false)])) return;
  let done = false;
  void settled.then(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) {
    const pid = Number.parseInt(await readFile(pidFile, 'utf8').catch(() => ''), 10);
    if (pid > 0) return killPidFile(pidFile, containerId);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** conmon reads "<type> <height> <width>\n" from the bundle's ctl fifo: 1 resizes the tty, 2 reopens the log. */
async function writeControl(bundle: string, line: string): Promise<void> {
  let handle;
  try {
    handle = await open(joinPath(bundle, 'ctl'), constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unavailable(`container monitor is not running (${(error as NodeJS.ErrnoException).code})`, error);
  }
  try {
    await handle.write(line);
  } finally {
    await handle.close();
  }
}

function lastRuncError(log: string): string {
  const lines = log.trim().split('\n').reverse();
  for (const line of lines) {
    try {
      const entry = JSON.parse(line) as { level?: string; msg?: string };
      if (entry.level === 'error' && entry.msg) return entry.msg;
    } catch {
      if (line) return line;
    }
  }
  return 'unknown error (see runc.log in the bundle)';
}

/** The message of runc's last stderr line, which is logrus text (`time=... level=error msg="..."`) or plain. */
export function runcMessage(stderr: string): string {
  const line = stderr.trim().split('\n').pop() ?? '';
  const m = /\bmsg="((?:[^"\\]|\\.)*)"/.exec(line);
  if (!m) return line;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1]!;
  }
}

function closed(stream: NodeJS.ReadableStream & { destroyed?: boolean }): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed) resolve();
    else stream.once('close', () => resolve());
  });
}
