// Exec with a TTY through conmon (--exec --exec-attach): conmon allocates the
// console (runc's --console-socket needs fd passing, which Node lacks) and
// serves it on an attach socket like a container's. Handshake over three
// pipes named by environment variables: conmon waits for a first write on
// _OCI_STARTPIPE, reports on _OCI_ATTACHPIPE when the attach socket is ready,
// waits for a second start write (we are attached), then reports the exec
// pid and, when the process ends, its exit status on _OCI_SYNCPIPE.
import { writeFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { StreamIO } from '../../api/cri-service.js';
import { internal } from '../errors.js';
import type { OciProcess } from '../oci/oci-runtime.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { parseSyncMessage, type SyncMessage } from '../oci/conmon.js';
import { attachToConmon } from './attach-client.js';
import { LineQueue } from './line-queue.js';
import { makeSession, removeSession, sessionName } from './session-dir.js';

export interface ConmonExecOptions {
  runner: ProcessRunner;
  conmon: string;
  runcPath: string;
  runcRoot: string;
  /** The handler's global options, before --root. */
  runtimeArgs?: string[];
  /** Short dir for the session's attach socket link. */
  socketDir: string;
  /** Parent of the per-session dirs (bundle, exit file, spec). */
  sessionsDir: string;
  containerId: string;
  process: OciProcess;
  /** Whether the client sends stdin (conmon -i); `io.stdin` may not be there yet (see io.opened). */
  stdin: boolean;
  io: StreamIO;
  timeoutMs?: number;
}

/** conmon's sync messages, one per line. */
class LineReader {
  private readonly lines: LineQueue;
  constructor(stream: Readable) {
    this.lines = new LineQueue(stream);
  }
  async next(timeoutMs: number): Promise<SyncMessage> {
    const line = await this.lines.next(timeoutMs);
    if (line === null) throw internal(`conmon exec did not answer within ${timeoutMs} ms`);
    if (line === undefined) throw internal('conmon exec closed its pipe early');
    return parseSyncMessage(line);
  }
}

export async function execWithConmon(o: ConmonExecOptions): Promise<number> {
  const session = makeSession(o.sessionsDir);
  const sessionId = sessionName(o.containerId, session);
  const link = join(o.socketDir, sessionId);
  // Written only once the client's streams are open (below): conmon's waiting child runs runc
  // whenever our end of the start pipe closes, our death included, and without a spec runc runs nothing.
  const specFile = join(session, 'process.json');
  const args = [
    '--api-version', '1',
    '-c', o.containerId,
    '-u', sessionId,
    '-r', o.runcPath,
    '-b', session,
    '-p', join(session, 'pidfile'),
    '-l', `k8s-file:${join(session, 'exec.log')}`,
    '--exit-dir', session,
    '--socket-dir-path', o.socketDir,
    '--log-level', 'error',
    '-e', '--exec-process-spec', specFile,
    '--exec-attach',
    ...(o.runtimeArgs ?? []).flatMap((a) => ['--runtime-arg', a]),
    '--runtime-arg', '--root',
    '--runtime-arg', o.runcRoot,
  ];
  if (o.io.tty) args.push('-t');
  if (o.stdin) args.push('-i');
  const timeout = o.timeoutMs ?? 30_000;
  let pipes: Socket[] = [];
  try {
    // Through the addon when built: no fork of the daemon per exec session (see spawnWithPipes).
    const spawned = await o.runner.spawnWithPipes(
      {
        cmd: o.conmon,
        args,
        // In the session's dir: conmon before 2.1.13 writes an `oom` file into its working dir.
        cwd: session,
        extraEnv: { _OCI_SYNCPIPE: '3', _OCI_STARTPIPE: '4', _OCI_ATTACHPIPE: '5' },
      },
      3,
    );
    pipes = spawned.pipes;
    const sync = new LineReader(pipes[0]!);
    const start = pipes[1]!;
    const attachReady = new LineReader(pipes[2]!);
    start.write('0');
    const ready = await attachReady.next(timeout);
    if (ready.data < 0) throw internal(`exec failed: ${ready.message ?? 'attach socket setup'}`);
    let connected!: () => void;
    const isConnected = new Promise<void>((resolve) => (connected = resolve));
    const streaming = attachToConmon({
      socketPath: join(link, 'attach'),
      io: o.io,
      onConnect: () => connected(),
      resize: async (w, h) => {
        const { open } = await import('node:fs/promises');
        const { constants } = await import('node:fs');
        const handle = await open(join(session, 'ctl'), constants.O_WRONLY | constants.O_NONBLOCK);
        await handle.write(`1 ${h} ${w}\n`).finally(() => handle.close());
      },
    });
    // conmon starts the process on the second start write. Once we are connected, conmon's main
    // loop accepts us (our connection waits in its backlog) before it reads any output: output is
    // read only after `runc exec -d` has exited, and the accept is ready before runc even starts.
    // A failed connect settles `streaming` instead (and the session goes on without output, as before).
    await Promise.race([isConnected, streaming.catch(() => undefined)]);
    // conmon booted and we connected while the client was still coming; the command waits for its
    // streams (when they never come, the finally below ends the session without running it).
    await o.io.opened;
    writeFileSync(specFile, JSON.stringify({ ...o.process, terminal: o.io.tty }));
    start.write('0');
    const started = await sync.next(timeout);
    if (started.data < 0) throw internal(`exec failed: ${started.message ?? 'runc exec'}`);
    const exit = await sync.next(24 * 3600_000);
    await streaming.catch(() => undefined);
    return exit.data;
  } finally {
    // The session dir goes first (conmon never removes its link to it): when our end of the start pipe closes, conmon's waiting child
    // execs runc even if we never said start (a session given up early), and runc then finds no
    // process spec and fails before anything runs in the container (as after our death, when the
    // spec was never written).
    removeSession(session, link);
    for (const s of pipes) s?.destroy();
  }
}
