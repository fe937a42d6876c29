// Processes each container CRI call spawns, isulats daemon against containerd 1.6: strace
// follows each daemon (containerd's shims included, since they are its descendants) and every
// execve is put down to the call whose window holds it (a call's window runs to the next call's
// start, so what a daemon does just after answering still counts). strace slows both: counts only.
// Usage: node bench/container-calls/run.mjs --procs   (needs root and strace)
import { startContainerd } from '../../test/rig/containerd.js';
import { openCriClient } from '../../test/rig/cri-client.js';
import { execName, execsPerCall, traceExecs } from '../../test/rig/exec-trace.js';
import { startIsulatsDaemon } from '../../test/rig/isulats-daemon.js';
import { runBenchWithRig } from '../bench-rig.js';
import { containerCalls } from './script.js';

async function traced(pid: number, endpoint: string, image: string, tag: string): Promise<Map<string, string[]>> {
  const cri = openCriClient(endpoint);
  const trace = await traceExecs(pid);
  let windows;
  try {
    windows = await containerCalls(cri, image, tag);
  } finally {
    cri.close();
  }
  const execs = await trace.stop();
  return new Map([...execsPerCall(execs, windows)].map(([label, list]) => [label, list.map(execName)]));
}

function summary(list: string[]): string {
  const counts = new Map<string, number>();
  for (const w of list) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].map(([w, n]) => (n > 1 ? `${n}× ${w}` : w)).join(', ') || '-';
}

runBenchWithRig(async (rig) => {
  const daemon = await startIsulatsDaemon({ podSandboxImage: rig.images.pause });
  rig.daemons.push(daemon);
  const containerd = (rig.containerd = await startContainerd({ sandboxImage: rig.images.pause, plainHttpRegistries: [rig.registry.host] }));
  for (const endpoint of [daemon.endpoint, containerd.endpoint]) {
    const cri = openCriClient(endpoint);
    for (const image of [rig.images.busybox, rig.images.pause]) await cri.image('PullImage', { image: { image } }, 120_000);
    cri.close();
  }
  const ours = await traced(daemon.pid, daemon.endpoint, rig.images.busybox, 'isulats');
  const theirs = await traced(containerd.pid, containerd.endpoint, rig.images.busybox, 'containerd');
  console.log('processes per call (the containers\' own programs included: sh, sleep, true)');
  console.log('| call | isulats | | containerd 1.6 | |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [label, list] of ours) {
    const other = theirs.get(label) ?? [];
    console.log(`| ${label} | ${list.length} | ${summary(list)} | ${other.length} | ${summary(other)} |`);
  }
});
