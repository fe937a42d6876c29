// The floor of a unary gRPC call served by Node: node:http2 alone answering every call with an
// empty message (valid protobuf for any response type), run under the daemon's Node flags by
// rpcs.ts. What is left of the daemon's per-call cost once grpc-js and the engine are gone.
// Usage: node [FLAGS] bench/container-calls/h2-floor.mjs SOCKET   (prints "ready" when listening)
import { createServer } from 'node:http2';
import { rmSync } from 'node:fs';

const socket = process.argv[2];
rmSync(socket, { force: true });
const EMPTY = Buffer.alloc(5); // not compressed, length 0
const server = createServer();
server.on('stream', (stream) => {
  stream.on('error', () => undefined);
  stream.resume();
  stream.on('end', () => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc+proto' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(EMPTY);
  });
});
server.listen(socket, () => console.log('ready'));
process.on('SIGTERM', () => process.exit(0));
