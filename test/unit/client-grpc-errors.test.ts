// How a remote runtime's gRPC errors become the CLI's one line: the cause, not grpc-js internals.
import { describe, expect, it } from 'vitest';
import { fromGrpcError, socketPath } from '../../src/client/grpc-errors.js';

describe('fromGrpcError', () => {
  it('says permission denied on the socket for a connect EACCES, without the resolver notes', () => {
    // grpc-js 1.x's details for a unix socket this user may not write to.
    const details = 'No connection established. Last error: connect EACCES /run/containerd/containerd.sock (2026-12-07T04:40:00.000Z). Resolution note: ';
    const err = fromGrpcError({ code: 14, details }, 'unix:///run/containerd/containerd.sock');
    expect(err.message).toBe('permission denied on /run/containerd/containerd.sock');
    expect(err.kind).toBe('unavailable');
  });

  it('says why a connect failed in one line, without grpc-js\'s own wording', () => {
    const at = (errno: string) => `No connection established. Last error: Error: connect ${errno} /tmp/x.sock (2026-12-07T18:13:00.000Z). Resolution note: `;
    expect(fromGrpcError({ code: 14, details: at('ENOENT') }, 'unix:///tmp/x.sock').message)
      .toBe('cannot connect to unix:///tmp/x.sock: no such file or directory (is the runtime running?)');
    expect(fromGrpcError({ code: 14, details: at('ECONNREFUSED') }, 'unix:///tmp/x.sock').message)
      .toBe('cannot connect to unix:///tmp/x.sock: connection refused (nothing listens on the socket: is the runtime running?)');
    expect(fromGrpcError({ code: 14, details: at('EHOSTDOWN') }, 'unix:///tmp/x.sock').message).toBe('cannot connect to unix:///tmp/x.sock: connect: EHOSTDOWN');
    // A runtime's own Unavailable keeps its words.
    expect(fromGrpcError({ code: 14, details: 'server is shutting down' }, 'unix:///tmp/x.sock').message).toBe('cannot connect to unix:///tmp/x.sock: server is shutting down');
  });

  it("blames the connection only for grpc-js's own deadline, not a runtime's DeadlineExceeded", () => {
    const own = fromGrpcError({ code: 4, details: 'Deadline exceeded after 2.001s,LB pick: 0.001s' }, 'unix:///x.sock');
    expect(own.message).toBe('no answer from unix:///x.sock within the timeout (Deadline exceeded after 2.001s,LB pick: 0.001s)');
    const runtime = fromGrpcError({ code: 4, details: 'failed to exec in container: timeout 1s exceeded: context deadline exceeded' }, 'unix:///x.sock');
    expect(runtime.message).toBe('failed to exec in container: timeout 1s exceeded: context deadline exceeded');
    expect(runtime.kind).toBe('deadline-exceeded');
  });

  it('keeps the socket path of every unix endpoint form', () => {
    expect(socketPath('unix:///run/x.sock')).toBe('/run/x.sock');
    expect(socketPath('unix:/run/x.sock')).toBe('/run/x.sock');
    expect(socketPath('/run/x.sock')).toBe('/run/x.sock');
  });
});
