// Connections to a port inside a pod, for the daemon's port-forward sessions. Node cannot setns, so a
// port the host cannot reach by IP is reached through a relay process inside the pod's network namespace.
import { connect } from 'node:net';
import { Duplex, PassThrough } from 'node:stream';
import { unavailable } from '../errors.js';
import type { ProcessRunner } from '../oci/process-runner.js';

export function connectTcp(host: string, port: number): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    // Half-open: the client may end its request and still read the answer.
    const socket = connect({ host, port, allowHalfOpen: true });
    socket.once('connect', () => { socket.off('error', reject); resolve(socket); });
    socket.once('error', (err) => reject(unavailable(`failed to connect to ${host}:${port}: ${err.message}`, err)));
  });
}

export async function relayInNetns(runner: ProcessRunner, netnsPath: string, port: number): Promise<Duplex> {
  const child = await runner.spawn('nsenter', [`--net=${netnsPath}`, '/bin/busybox', 'nc', '127.0.0.1', String(port)], { stdio: ['pipe', 'pipe', 'pipe'] });
  // nc's EOF alone cannot tell "the pod closed" from "nothing listens": the end waits for its exit
  // status, so a refused port reaches the client as an error (as from containerd), not as an empty connection.
  const out = new PassThrough();
  child.stdout!.pipe(out, { end: false });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => { if (stderr.length < 1024) stderr += text; });
  // Client bytes written after nc exited (refused port) fail with EPIPE; the exit status below says why, so the
  // write side swallows that rather than racing it to the client with a meaningless "write EPIPE".
  const input = new PassThrough();
  child.stdin!.on('error', () => input.unpipe(child.stdin!));
  input.pipe(child.stdin!);
  const relay = Duplex.from({ readable: out, writable: input });
  child.once('close', (code, signal) => {
    if (code === 0 || relay.destroyed) out.end();
    else relay.destroy(new Error(stderr.trim() || `nc in the pod's network namespace exited with ${code ?? signal}`));
  });
  relay.once('close', () => { if (child.exitCode === null) child.kill('SIGKILL'); });
  child.once('error', (err) => relay.destroy(err));
  return relay;
}
