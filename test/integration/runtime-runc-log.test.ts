// runc's own log lines never reach the container's log. conmon runs `runc create` on the
// container's stdio, so whatever runc prints there lands in the log kubelet reads: under the
// systemd driver runc 1.1 warns `skipping device /dev/char/10:200 for systemd` at each start,
// which broke the two supplemental-groups specs of critest. runc is given a log file of its own
// (`--log`, JSON), as podman does through conmon. The handler here is runc behind a wrapper that
// warns as runc does at that point: into --log when it has one, else onto stderr.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait.js';
import { BUSYBOX_REF, kubeletShapedPod, openFixture, type RuntimeFixture } from './runtime-fixture.js';

const WARNING = 'skipping device /dev/char/10:200 for systemd';

describe('runtime: runc output stays out of container logs', () => {
  let fx: RuntimeFixture;
  let wrapper: string;

  beforeAll(async () => {
    const { makeTempDir } = await import('../rig/temp-dir.js');
    const dir = await makeTempDir('istrl-');
    wrapper = join(dir, 'runc-warns');
    writeFileSync(wrapper, `#!/bin/sh
log=""; prev=""
for a in "$@"; do [ "$prev" = "--log" ] && log="$a"; prev="$a"; done
case " $* " in
  *" create "*)
    if [ -n "$log" ]; then printf '{"level":"warning","msg":"${WARNING}"}\\n' >> "$log"
    else printf 'time="2026-01-01T00:00:00Z" level=warning msg="${WARNING}"\\n' >&2; fi ;;
esac
exec runc "$@"
`);
    chmodSync(wrapper, 0o755);
    fx = await openFixture({ runtimes: { warns: { path: wrapper } } });
    fx.dispose = ((inner) => async () => {
      await inner();
      const { removeTempDir } = await import('../rig/temp-dir.js');
      await removeTempDir(dir);
    })(fx.dispose);
  }, 180_000);

  afterAll(async () => {
    await fx?.dispose();
  }, 120_000);

  it("keeps a warning runc prints while creating the container out of the container's log", async () => {
    const e = fx.engine;
    const logDir = join(fx.dir, 'pod-logs');
    await mkdir(logDir);
    const pod = { ...kubeletShapedPod('runc-log', 'rt-test'), logDirectory: logDir };
    const { podSandboxId } = await e.runPodSandbox({ config: pod, runtimeHandler: 'warns' });
    try {
      const { containerId } = await e.createContainer({ podSandboxId, sandboxConfig: pod, config: { metadata: { name: 'app' }, image: { image: BUSYBOX_REF }, command: ['echo', 'hello from the container'], logPath: 'app/0.log' } });
      await e.startContainer({ containerId });
      await waitFor(async () => (await e.containerStatus({ containerId })).status?.state === 'CONTAINER_EXITED', { timeoutMs: 30_000, what: 'the container to exit' });
      const log = readFileSync(join(logDir, 'app', '0.log'), 'utf8');
      expect(log).toMatch(/ stdout F hello from the container\n$/);
      expect(log).not.toContain(WARNING);
    } finally {
      await e.removePodSandbox({ podSandboxId });
    }
  });
});
