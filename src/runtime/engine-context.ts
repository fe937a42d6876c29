// The parts every RPC implementation uses, built once by Engine.open.
import type { ImageService } from './image/image-service.js';
import type { OverlaySnapshotter } from './snapshot/overlay-snapshotter.js';
import type { CniManager } from './network/cni.js';
import type { OciRuntime } from './oci/oci-runtime.js';
import type { RuntimeHandlers } from './oci/runtime-handlers.js';
import type { ProcessRunner } from './oci/process-runner.js';
import type { StateStore } from './store/state-store.js';
import type { NameRegistry } from './store/id-registry.js';
import type { SandboxRecord } from './sandbox/sandbox-record.js';
import type { ContainerRecord } from './container/container-record.js';
import type { EventLog } from './container/event-log.js';
import type { EngineOptions, EnginePaths } from './config/engine-config.js';
import type { HostFeatures } from './container/spec.js';
import type { EngineNri } from './nri/engine-nri.js';
import { systemdCgroupsPath } from './oci/systemd-cgroup.js';
import type { CdiRegistry } from './cdi/spec-registry.js';

export interface EngineContext {
  options: EngineOptions;
  paths: EnginePaths;
  runner: ProcessRunner;
  /** The default runtime handler's runtime (cgroup reads and monitor sweeps, which any handler does alike). */
  oci: OciRuntime;
  /** Every runtime handler; a pod and its containers use the one named in the pod's record. */
  runtimes: RuntimeHandlers;
  cni: CniManager;
  images: ImageService;
  snapshots: OverlaySnapshotter;
  sandboxes: StateStore<SandboxRecord>;
  containers: StateStore<ContainerRecord>;
  sandboxNames: NameRegistry;
  containerNames: NameRegistry;
  events: EventLog;
  host: HostFeatures;
  pauseImage: string;
  cgroupManager: 'cgroupfs' | 'systemd';
  warn: (message: string) => void;
  info?: (message: string) => void;
  /** CDI specs of the configured dirs, re-read when they change. */
  cdi: CdiRegistry;
  /** NRI hooks; unset when NRI is off. */
  nri?: EngineNri;
}

/** Undo stack: each acquisition pushes its release; on failure they run in reverse. */
export class Undo {
  private readonly steps: Array<{ what: string; fn: () => Promise<unknown> }> = [];
  push(what: string, fn: () => Promise<unknown>): void {
    this.steps.push({ what, fn });
  }
  /** Runs all undos (last first); returns the descriptions of those that failed. */
  async run(): Promise<string[]> {
    const failed: string[] = [];
    for (const step of this.steps.reverse()) {
      try {
        await step.fn();
      } catch (error) {
        failed.push(`${step.what}: ${(error as Error).message}`);
      }
    }
    this.steps.length = 0;
    return failed;
  }
}

export function cgroupsPathFor(ctx: EngineContext, parent: string, id: string): string {
  if (ctx.cgroupManager === 'systemd') return systemdCgroupsPath(parent, id);
  return `${parent.replace(/\/+$/, '')}/${id}`;
}
