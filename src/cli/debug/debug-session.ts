// `debug TARGET` as named steps: find the target, make sure the image is
// there, start the debug container beside it, connect the local terminal,
// and remove the container when its command ends (unless kept).
import type { CommandContext } from '../context.js';
import type { CriBackend } from '../../client/backend.js';
import { invalidArgument, notFound } from '../../runtime/errors.js';
import { ExitCodeError } from '../errors.js';
import { runStreamSession } from '../stream-session.js';
import { findDebugTarget, type DebugTarget } from './debug-target.js';
import { DEFAULT_DEBUG_IMAGE, debugContainerConfig } from './debug-container-config.js';
import { createAndStartDebugContainer } from './create-with-fallback.js';
import { attachStdinOnly } from './attach-stdin.js';
import { sandboxConfigFromStatus } from './sandbox-config.js';
import { sharesPidNamespace } from './check-target-pid.js';

export interface DebugRequest {
  target: string;
  image?: string;
  /** undefined: the default (share it when TARGET names a container). */
  targetPid?: boolean;
  keep: boolean;
  noPull: boolean;
  command: string[];
}

export async function runDebug(ctx: CommandContext, req: DebugRequest): Promise<number> {
  const backend = await ctx.backend();
  const target = await resolveTarget(backend, req.target);
  const pidTarget = pidTargetOf(target, req);
  const image = req.image || (await ctx.config())['debug-image'] || DEFAULT_DEBUG_IMAGE;
  await ensureImage(backend, image, req.noPull);
  const tty = Boolean(ctx.stdin.isTTY);
  const config = debugContainerConfig({
    image,
    command: req.command,
    tty,
    stdin: true,
    targetContainerId: pidTarget,
    targetOf: target.container?.id ?? target.podId,
  });
  const sandboxConfig = sandboxConfigFromStatus(await backend.podSandboxStatus({ podSandboxId: target.podId, verbose: true }));
  const started = await createAndStartDebugContainer(backend, target.podId, sandboxConfig, config, (line) => ctx.stderr.write(`${line}\n`));
  const { containerId } = started;
  if (started.sharesTargetPid && pidTarget && (await sharesPidNamespace(backend, containerId, pidTarget)) === false) {
    ctx.stderr.write("warning: the runtime accepted NamespaceMode TARGET but started the debug container outside the target's PID namespace: the target's processes may not be visible\n");
  }
  ctx.debug(`debug container ${containerId} in pod ${target.podId} (PID namespace: ${started.sharesTargetPid ? `of ${pidTarget}` : 'the pod'})`);
  // With a TTY, Ctrl-C is a byte for the container's shell; without, it ends the session here.
  const interrupted = tty ? undefined : interruptSignal();
  const stopOnTermination = removeOnTermination(req.keep ? async () => undefined : () => removeDebugContainer(backend, containerId));
  try {
    if (!interrupted) return await interactiveSession(ctx, backend, containerId);
    return await Promise.race([plainSession(ctx, backend, containerId, interrupted.signal), interrupted.done]);
  } finally {
    stopOnTermination();
    interrupted?.dispose();
    if (req.keep) ctx.stderr.write(`debug container kept: ${containerId}\n`);
    else await removeDebugContainer(backend, containerId);
  }
}

async function resolveTarget(backend: CriBackend, input: string): Promise<DebugTarget> {
  const [{ items }, { containers }] = await Promise.all([backend.listPodSandbox({}), backend.listContainers({})]);
  return findDebugTarget(items, containers, input);
}

/** The container whose PID namespace to share, or undefined for the pod's. */
function pidTargetOf(target: DebugTarget, req: DebugRequest): string | undefined {
  const wanted = req.targetPid ?? target.namedContainer;
  if (!wanted) return undefined;
  if (!target.container) {
    throw invalidArgument(`debug: --target-pid needs one running container, and pod ${target.podId.slice(0, 13)} has none or several: name it (pod-name/container-name or its ID)`);
  }
  return target.container.id;
}

async function ensureImage(backend: CriBackend, image: string, noPull: boolean): Promise<void> {
  const have = await backend.imageStatus({ image: { image } });
  if (have.image) return;
  if (noPull) throw notFound(`debug: image ${image} is not present and --no-pull was given`);
  try {
    await backend.pullImage({ image: { image } });
  } catch (err) {
    throw new Error(`debug: pulling ${image}: ${(err as Error).message}`, { cause: err });
  }
}

/** A TTY: attach the terminal (the shell waits for input, so nothing it printed is lost but its first prompt). */
async function interactiveSession(ctx: CommandContext, backend: CriBackend, containerId: string): Promise<number> {
  ctx.stderr.write("If you don't see a command prompt, try pressing enter.\n");
  try {
    await runStreamSession(backend, 'attach', { containerId, stdin: true, tty: true, stdout: true, stderr: false }, ctx);
  } catch (err) {
    if (err instanceof ExitCodeError) return err.code;
    throw err;
  }
  return exitCodeOf(backend, containerId);
}

/**
 * No TTY: output from the container's log file, read from its start (a
 * command may finish before an attach could connect), stdin through an
 * attach of stdin alone.
 */
async function plainSession(ctx: CommandContext, backend: CriBackend, containerId: string, signal: AbortSignal): Promise<number> {
  const { followUntilExit } = await import('../../commands/run.js');
  const feeding = attachStdinOnly(backend, containerId, ctx.stdin, signal, ctx.debug);
  const code = await followUntilExit(ctx, backend, containerId);
  // The attach ends with the container; a stdin that never ends must not hold us.
  await Promise.race([feeding, new Promise((r) => setTimeout(r, 1000).unref())]);
  return code;
}

async function exitCodeOf(backend: CriBackend, containerId: string): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const st = (await backend.containerStatus({ containerId })).status;
    if (st?.state === 'CONTAINER_EXITED') return st.exitCode;
    await new Promise((r) => setTimeout(r, 100));
  }
  return 0;
}

async function removeDebugContainer(backend: CriBackend, containerId: string): Promise<void> {
  await backend.stopContainer({ containerId, timeout: '0' }).catch(() => undefined);
  await backend.removeContainer({ containerId });
}

/**
 * A closed terminal (SIGHUP) or SIGTERM would end us before `finally` runs:
 * remove the container first, then exit as the signal would have. A plain
 * `on` handler, so that the terminal code re-raising the signal after
 * restoring the mode lands here again instead of killing us mid-removal.
 */
function removeOnTermination(remove: () => Promise<void>): () => void {
  let removing = false;
  const onSignal = (sig: NodeJS.Signals) => {
    if (removing) return;
    removing = true;
    remove()
      .catch(() => undefined)
      .finally(() => process.exit(128 + (sig === 'SIGHUP' ? 1 : 15)));
  };
  // Writes to a terminal that is gone fail: that is no reason to die before the removal.
  const onOutputError = () => undefined;
  process.on('SIGHUP', onSignal);
  process.on('SIGTERM', onSignal);
  process.stdout.on('error', onOutputError);
  return () => {
    process.off('SIGHUP', onSignal);
    process.off('SIGTERM', onSignal);
    process.stdout.off('error', onOutputError);
  };
}

/** Ctrl-C without a TTY ends the session with 130, after the container is removed. */
function interruptSignal(): { done: Promise<number>; signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  let onSigint = (): void => undefined;
  const done = new Promise<number>((resolve) => {
    onSigint = () => {
      ac.abort();
      resolve(130);
    };
  });
  process.once('SIGINT', onSigint);
  return { done, signal: ac.signal, dispose: () => process.off('SIGINT', onSigint) };
}
