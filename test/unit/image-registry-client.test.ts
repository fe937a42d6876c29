import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { MEDIA } from '../../src/runtime/image/manifest.js';
import { parseReference } from '../../src/runtime/image/reference.js';
import { RegistryClient } from '../../src/runtime/image/registry-client.js';

// A scripted registry on loopback: each test says how to answer each path.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
async function serve(handler: Handler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function body(res: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of res) parts.push(c as Buffer);
  return Buffer.concat(parts).toString();
}

const manifest = Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.dockerManifest, config: {}, layers: [] }));

describe('registry client', () => {
  it('retries 5xx answers and reset connections with backoff', async () => {
    let calls = 0;
    const host = await serve((req, res) => {
      calls++;
      if (calls === 1) return void res.writeHead(503).end();
      if (calls === 2) return void req.socket.destroy();
      res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest }).end(manifest);
    });
    const client = new RegistryClient({ insecure: [] });
    try {
      const got = await client.fetchManifest(parseReference(`${host}/a/b:t`));
      expect(got.digest).toBe(sha256Digest(manifest));
      expect(calls).toBe(3);
    } finally {
      client.close();
    }
  });

  it('names the plain-http URL it used in errors from a loopback registry', async () => {
    const host = await serve((_req, res) => {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}');
    });
    const client = new RegistryClient({});
    try {
      const error = await client.fetchManifest(parseReference(`${host}/a/b:t`)).then(() => undefined, (e: Error) => e);
      expect(error?.message).toBe(`not found: GET http://${host}/v2/a/b/manifests/t: 404 MANIFEST_UNKNOWN: manifest unknown`);
    } finally {
      client.close();
    }
  });

  it('a caller that leaves mid-manifest gets its own reason, and the connection closes', async () => {
    let closed = false;
    let sent = false;
    const host = await serve((req, res) => {
      if (req.url === '/v2/') return void res.writeHead(200).end('{}');
      sent = true;
      res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest });
      res.write('{"schemaVersion":');
      res.on('close', () => (closed = true));
    });
    const abort = new AbortController();
    const client = new RegistryClient({ signal: abort.signal });
    try {
      const fetching = client.fetchManifest(parseReference(`${host}/a/b:t`));
      fetching.catch(() => undefined);
      for (let i = 0; i < 200 && !sent; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      abort.abort(new Error('caller gone'));
      await expect(fetching).rejects.toThrow('caller gone');
      for (let i = 0; i < 100 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(closed).toBe(true);
    } finally {
      client.close();
    }
  });

  it('gives up after a bounded number of attempts', async () => {
    let calls = 0;
    const host = await serve((_req, res) => {
      calls++;
      res.writeHead(500).end('{"errors":[{"code":"UNKNOWN","message":"broken"}]}');
    });
    const client = new RegistryClient({ attempts: 3 });
    try {
      await expect(client.fetchManifest(parseReference(`${host}/a/b:t`))).rejects.toThrow(/500 UNKNOWN: broken/);
      expect(calls).toBe(3);
    } finally {
      client.close();
    }
  });

  it('follows blob redirects to another host without sending the registry credentials there', async () => {
    const blob = Buffer.from('blob-bytes');
    let storageAuth: string | undefined = 'unset';
    const storage = await serve((req, res) => {
      storageAuth = req.headers.authorization;
      res.writeHead(200).end(blob);
    });
    const host = await serve((req, res) => {
      if (!req.headers.authorization) return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="r"' }).end();
      res.writeHead(307, { Location: `http://${storage}/store/blob?sig=1` }).end();
    });
    const client = new RegistryClient({ credentials: async () => ({ username: 'u', password: 'p' }) });
    try {
      const res = await client.fetchBlob(parseReference(`${host}/a/b:t`), sha256Digest(blob));
      expect(await body(res)).toBe('blob-bytes');
      expect(storageAuth).toBeUndefined();
    } finally {
      client.close();
    }
  });

  it('rejects a manifest whose content does not match the digest asked for', async () => {
    const host = await serve((_req, res) => void res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest }).end(manifest));
    const client = new RegistryClient();
    try {
      await expect(client.fetchManifest(parseReference(`${host}/a/b@sha256:${'0'.repeat(64)}`))).rejects.toThrow(/digest mismatch/);
    } finally {
      client.close();
    }
  });

  it('rejects a manifest that disagrees with Docker-Content-Digest', async () => {
    const host = await serve((_req, res) =>
      void res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest, 'Docker-Content-Digest': `sha256:${'1'.repeat(64)}` }).end(manifest),
    );
    const client = new RegistryClient();
    try {
      await expect(client.fetchManifest(parseReference(`${host}/a/b:t`))).rejects.toThrow(/registry says/);
    } finally {
      client.close();
    }
  });

  it('asks the token realm once per scope and reuses the token', async () => {
    let tokenCalls = 0;
    const auth = await serve((req, res) => {
      tokenCalls++;
      const u = new URL(req.url!, 'http://x');
      expect(u.searchParams.get('service')).toBe('svc');
      expect(u.searchParams.getAll('scope')).toEqual(['repository:a/b:pull']);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: 'tok', expires_in: 300 }));
    });
    const host = await serve((req, res) => {
      if (req.headers.authorization !== 'Bearer tok') {
        return void res.writeHead(401, { 'WWW-Authenticate': `Bearer realm="http://${auth}/token",service="svc"` }).end();
      }
      res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest }).end(manifest);
    });
    const client = new RegistryClient();
    try {
      const ref = parseReference(`${host}/a/b:t`);
      await client.fetchManifest(ref);
      await client.fetchManifest(ref);
      await client.fetchManifest(ref, 't2');
      expect(tokenCalls).toBe(1);
    } finally {
      client.close();
    }
  });
});
