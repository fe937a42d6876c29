// What an OCI runtime handler can do, from its own `features` command (runc >= 1.1; crun 1.8 has
// none): announced per handler in StatusResponse.runtime_handlers, and checked before a container
// asks for it. A runtime without the command, or with output we cannot read, can do none of it.
import { release } from 'node:os';
import type { ProcessRunner } from './process-runner.js';

export interface HandlerFeatures {
  /** The `rro` mount option: a bind mount read-only with every mount under it (mount_setattr AT_RECURSIVE). */
  recursiveReadOnlyMounts: boolean;
}

export const NO_FEATURES: HandlerFeatures = { recursiveReadOnlyMounts: false };

/** Whether a kernel release ("6.1.0-18-amd64") has mount_setattr(2), which `rro` needs: 5.12 or later. */
export function kernelHasMountSetattr(kernelRelease: string): boolean {
  const [major = 0, minor = 0] = (/^(\d+)\.(\d+)/.exec(kernelRelease) ?? []).slice(1).map(Number);
  return major > 5 || (major === 5 && minor >= 12);
}

/** The features in `<runtime> features` output (JSON, runtime-spec features.md); none for anything else. */
export function parseRuntimeFeatures(output: string): HandlerFeatures {
  let doc: unknown;
  try {
    doc = JSON.parse(output);
  } catch {
    return NO_FEATURES;
  }
  const mountOptions = (doc as { mountOptions?: unknown } | null)?.mountOptions;
  return { recursiveReadOnlyMounts: Array.isArray(mountOptions) && mountOptions.includes('rro') };
}

/** Runs `<path> [runtimeArgs] features` once; a failure (unknown command, timeout) means no features. */
export async function probeRuntimeFeatures(runner: ProcessRunner, path: string, runtimeArgs: string[]): Promise<HandlerFeatures> {
  const result = await runner.run({ cmd: path, args: [...runtimeArgs, 'features'], timeoutMs: 10_000, maxOutput: 1024 * 1024 }).catch(() => undefined);
  if (!result || result.code !== 0 || result.timedOut) return NO_FEATURES;
  const listed = parseRuntimeFeatures(result.stdout.toString());
  // runc lists rro whatever the kernel; before 5.12 the container would fail at its start.
  return { recursiveReadOnlyMounts: listed.recursiveReadOnlyMounts && kernelHasMountSetattr(release()) };
}
