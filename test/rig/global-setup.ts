import type { TestProject } from 'vitest/node';
import { startContainerd, type Containerd } from './containerd.js';
import { pushRigImages, type PushedImages } from './images.js';
import { startIsulatsDaemon, type IsulatsDaemon } from './isulats-daemon.js';
import { startRegistry, type Registry } from './registry.js';
import { RIG_PROVIDE_KEY, requestedPeer, type RigEnv } from './rig-env.js';
import { reapStaleRigs } from './stale-rigs.js';
import { armInterruptReaper } from './interrupt-reaper.js';

/** The CRI runtime the CLI's remote-mode tests talk to, as global setup started it. */
interface Peer {
  env: Pick<RigEnv, 'ISULATS_TEST_CRI_PEER' | 'ISULATS_TEST_CRI_ENDPOINT' | 'ISULATS_TEST_CNI_CONF_DIR'> & Partial<RigEnv>;
  stop(): Promise<void>;
}

async function startContainerdPeer(registry: Registry, images: PushedImages): Promise<Peer> {
  const containerd: Containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host] });
  return {
    env: {
      ISULATS_TEST_CRI_PEER: 'containerd',
      ISULATS_TEST_CRI_ENDPOINT: containerd.endpoint,
      ISULATS_TEST_CONTAINERD: containerd.endpoint,
      ISULATS_TEST_CONTAINERD_STREAM: containerd.streamAddress,
      ISULATS_TEST_CNI_CONF_DIR: containerd.cniConfDir,
    },
    stop: () => containerd.stop(),
  };
}

/** `isulats daemon` (bin/isulats, the shipped build) with the rig's pause image as pod-sandbox-image. */
async function startIsulatsPeer(images: PushedImages): Promise<Peer> {
  const daemon: IsulatsDaemon = await startIsulatsDaemon({ podSandboxImage: images.pause });
  return {
    env: {
      ISULATS_TEST_CRI_PEER: 'isulats',
      ISULATS_TEST_CRI_ENDPOINT: daemon.endpoint,
      ISULATS_TEST_CNI_CONF_DIR: daemon.cniConfDir,
    },
    stop: () => daemon.cleanup(),
  };
}

/**
 * Starts the shared rig once per vitest run (registry with our images, then the CRI peer:
 * containerd, or `isulats daemon` when ISULATS_TEST_PEER=isulats) and returns the teardown, which
 * vitest runs at the end even when tests failed.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  const peerName = requestedPeer();
  let registry: Registry | undefined;
  let peer: Peer | undefined;
  const disarm = armInterruptReaper();
  const teardown = async (): Promise<void> => {
    disarm();
    const stopping = Date.now();
    const errors: unknown[] = [];
    await peer?.stop().catch((error: unknown) => errors.push(error));
    await registry?.stop().catch((error: unknown) => errors.push(error));
    log(`stopped in ${Date.now() - stopping} ms`);
    if (errors.length > 0) throw new AggregateError(errors, 'test rig teardown failed');
  };
  try {
    const reaped = await reapStaleRigs();
    if (reaped > 0) log(`reaped ${reaped} rig part(s) left by runs that died`);
    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    peer = peerName === 'isulats' ? await startIsulatsPeer(images) : await startContainerdPeer(registry, images);
    const env = {
      ISULATS_TEST_REGISTRY: registry.host,
      ISULATS_TEST_BUSYBOX: images.busybox,
      ISULATS_TEST_PAUSE: images.pause,
      ...peer.env,
    } as RigEnv;
    Object.assign(process.env, env);
    project.provide(RIG_PROVIDE_KEY, env);
    log(`started in ${Date.now() - started} ms (registry ${registry.host}, ${peerName} ${peer.env.ISULATS_TEST_CRI_ENDPOINT})`);
  } catch (error) {
    await teardown().catch(() => undefined);
    throw error;
  }
  return teardown;
}

function log(message: string): void {
  process.stderr.write(`[rig] ${message}\n`);
}
