import { createServer } from 'node:net';

// Ports the rig must never hand out: 5000 is where a stray system registry would sit.
const RESERVED = new Set([5000, 5001]);

/** Asks the kernel for an unused TCP port on 127.0.0.1 (bounded retries to skip reserved ones). */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        const chosen = typeof address === 'object' && address ? address.port : 0;
        server.close(() => resolve(chosen));
      });
    });
    if (port > 0 && !RESERVED.has(port)) return port;
  }
  throw new Error('no free TCP port found on 127.0.0.1');
}
