import type { TestProject } from 'vitest/node';
import { startContainerd, type Containerd } from './containerd.js';
import { pushRigImages } from './images.js';
import { startRegistry, type Registry } from './registry.js';
import { RIG_PROVIDE_KEY, type RigEnv } from './rig-env.js';
import { reapStaleRigs } from './stale-rigs.js';
import { armInterruptReaper } from './interrupt-reaper.js';

/**
 * Starts the shared rig once per vitest run (registry with our images, then containerd) and
 * returns the teardown, which vitest runs at the end even when tests failed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  let registry: Registry | undefined;
  let containerd: Containerd | undefined;
  const disarm = armInterruptReaper();
  const teardown = async (): Promise<void> => {
    disarm();
    const stopping = Date.now();
    const errors: unknown[] = [];
    await containerd?.stop().catch((error: unknown) => errors.push(error));
    await registry?.stop().catch((error: unknown) => errors.push(error));
    log(`stopped in ${Date.now() - stopping} ms`);
    if (errors.length > 0) throw new AggregateError(errors, 'test rig teardown failed');
  };
  try {
    const reaped = await reapStaleRigs();
    if (reaped > 0) log(`reaped ${reaped} rig part(s) left by runs that died`);
    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host] });
    const env: RigEnv = {
      ISULATS_TEST_REGISTRY: registry.host,
      ISULATS_TEST_BUSYBOX: images.busybox,
      ISULATS_TEST_PAUSE: images.pause,
      ISULATS_TEST_CONTAINERD: containerd.endpoint,
      ISULATS_TEST_CONTAINERD_STREAM: containerd.streamAddress,
      ISULATS_TEST_CNI_CONF_DIR: containerd.cniConfDir,
    };
    Object.assign(process.env, env);
    project.provide(RIG_PROVIDE_KEY, env);
    log(`started in ${Date.now() - started} ms (registry ${registry.host}, containerd ${containerd.endpoint})`);
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}

function log(message: string): void {
  process.stderr.write(`[rig] ${message}\n`);
}
