// The runtime handlers a pod can pick with RunPodSandbox's runtime_handler:
// each a runc-compatible CLI (runc, crun) driven the same way, with a state
// root of its own, so `<binary> --root <root> list` shows only its containers.
// "" is the default handler. A pod's containers run on its handler.
import { basename, join } from 'node:path';
import { failedPrecondition, internal } from '../errors.js';
import type { EngineOptions, EnginePaths } from '../config/engine-config.js';
import { mkdirPrivate } from '../store/private-dirs.js';
import type { OciRuntime } from './oci-runtime.js';
import type { ProcessRunner } from './process-runner.js';
import { RuncConmonRuntime } from './runc-conmon.js';
import { probeRuntimeFeatures, type HandlerFeatures } from './runtime-features.js';

export interface RuntimeHandlerOptions {
  /** The binary: an absolute path, or a name looked up on PATH. */
  path: string;
  /** Global options put before every command (and passed through conmon as --runtime-arg). */
  runtimeArgs?: string[];
}

export interface RuntimeHandlerEntry {
  name: string;
  path: string;
  runtimeArgs: string[];
  /** The runtime's --root. */
  root: string;
  runtime: OciRuntime;
  /** What the runtime's `features` command lists, asked at first need and kept. */
  features(): Promise<HandlerFeatures>;
}

/**
 * The state root of a handler: runc keeps the engine's historical runc root (its containers from
 * before handlers existed stay found); every other handler gets `<state>/runtimes/<name>`.
 */
export function handlerRoot(state: string, runcRoot: string, name: string): string {
  return name === 'runc' ? runcRoot : join(state, 'runtimes', name);
}

/**
 * Whether pods with a user namespace of their own can run on this handler: runc joins the pinned
 * user namespace and gets rootfs and volumes idmapped by the engine (runc 1.1 makes no idmapped
 * mounts itself). Other runtimes are not tested with it here.
 */
export function supportsUserNamespaces(entry: Pick<RuntimeHandlerEntry, 'path'>): boolean {
  return basename(entry.path) === 'runc';
}

export class RuntimeHandlers {
  private readonly byName: Map<string, RuntimeHandlerEntry>;

  constructor(entries: RuntimeHandlerEntry[], readonly defaultName: string) {
    this.byName = new Map(entries.map((e) => [e.name, e]));
    if (!this.byName.has(defaultName)) throw internal(`default runtime "${defaultName}" is not configured`);
  }

  /** Whether RunPodSandbox may name this handler ("" is the default). */
  has(handler: string): boolean {
    return handler === '' || this.byName.has(handler);
  }

  /** The handler's entry, undefined when it is not configured. */
  find(handler: string): RuntimeHandlerEntry | undefined {
    return this.byName.get(handler === '' ? this.defaultName : handler);
  }

  /** The handler's entry; a record naming a handler no longer configured is an error, never a silent fallback. */
  entry(handler: string): RuntimeHandlerEntry {
    const e = this.find(handler);
    if (!e) throw internal(`runtime handler "${handler}" is not configured (configured: ${this.names().join(', ')})`);
    return e;
  }

  get(handler: string): OciRuntime {
    return this.entry(handler).runtime;
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): RuntimeHandlerEntry[] {
    return [...this.byName.values()];
  }
}

/** The handlers an engine's options configure: the built-in runc, then `runtimes` (which may redefine it). */
export async function openRuntimeHandlers(
  options: EngineOptions,
  paths: EnginePaths,
  runner: ProcessRunner,
  cgroupManager: 'cgroupfs' | 'systemd',
): Promise<RuntimeHandlers> {
  const configured: Record<string, RuntimeHandlerOptions> = { runc: { path: options.runcPath ?? 'runc' }, ...options.runtimes };
  const defaultName = options.defaultRuntime ?? 'runc';
  if (!configured[defaultName]) throw failedPrecondition(`default runtime "${defaultName}" is not among the configured runtimes (${Object.keys(configured).join(', ')})`);
  const entries: RuntimeHandlerEntry[] = [];
  for (const [name, h] of Object.entries(configured)) {
    const root = handlerRoot(paths.state, paths.runcRoot, name);
    await mkdirPrivate(root);
    const runtimeArgs = h.runtimeArgs ?? [];
    const runtime = new RuncConmonRuntime({
      runner,
      runcRoot: root,
      exitDir: paths.exitDir,
      socketDir: paths.socketDir,
      runcPath: h.path,
      runtimeArgs,
      conmonPath: options.conmonPath,
      systemdCgroup: cgroupManager === 'systemd',
      debug: options.debug,
      warn: options.warn,
    });
    let features: Promise<HandlerFeatures> | undefined;
    entries.push({ name, path: h.path, runtimeArgs, root, runtime, features: () => (features ??= probeRuntimeFeatures(runner, h.path, runtimeArgs)) });
  }
  return new RuntimeHandlers(entries, defaultName);
}
