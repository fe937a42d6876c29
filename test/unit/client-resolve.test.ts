import { describe, expect, it, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttp2Server, type Http2Server } from 'node:http2';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { chooseBackend, choiceNote, knownEndpoints } from '../../src/client/resolve.js';
import { grpcTarget } from '../../src/client/endpoint.js';
import { readClientConfig, parseConfigValue } from '../../src/client/config-file.js';

const noDaemon = '/nonexistent/isulats.sock';
// No test reaches a node's real runtime sockets.
const noKnown = { ISULATS_KNOWN_ENDPOINTS: '' };

/** A scripted HTTP/2 peer on a unix socket that answers every call with `grpcStatus` (or never, with 'hang'). */
async function grpcPeer(sock: string, grpcStatus: number | 'hang' | ((path: string) => number)): Promise<{ server: Http2Server; paths: string[] }> {
  const paths: string[] = [];
  const server = createHttp2Server();
  server.on('stream', (stream, headers) => {
    const path = String(headers[':path']);
    paths.push(path);
    if (grpcStatus === 'hang') return;
    const code = typeof grpcStatus === 'function' ? grpcStatus(path) : grpcStatus;
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': String(code) }));
    stream.end();
  });
  await new Promise<void>((r) => server.listen(sock, r));
  return { server, paths };
}

describe('endpoint precedence', () => {
  it('takes the flag over env and config', async () => {
    const c = await chooseBackend({ runtimeEndpointFlag: 'unix:///flag.sock', config: { 'runtime-endpoint': 'unix:///cfg.sock' }, env: { CONTAINER_RUNTIME_ENDPOINT: 'unix:///env.sock' }, daemonSocket: noDaemon });
    expect(c).toEqual({ runtimeEndpoint: 'unix:///flag.sock', imageEndpoint: 'unix:///flag.sock', source: 'flag' });
  });

  it('takes CONTAINER_RUNTIME_ENDPOINT over the config file, and IMAGE_SERVICE_ENDPOINT for images', async () => {
    const c = await chooseBackend({ config: { 'runtime-endpoint': 'unix:///cfg.sock' }, env: { CONTAINER_RUNTIME_ENDPOINT: 'unix:///env.sock', IMAGE_SERVICE_ENDPOINT: 'unix:///img.sock' }, daemonSocket: noDaemon });
    expect(c).toEqual({ runtimeEndpoint: 'unix:///env.sock', imageEndpoint: 'unix:///img.sock', source: 'env' });
  });

  it('uses the config file when no flag or env is set', async () => {
    const c = await chooseBackend({ config: { 'runtime-endpoint': 'unix:///cfg.sock', 'image-endpoint': 'unix:///cfgimg.sock' }, env: {}, daemonSocket: noDaemon });
    expect(c).toEqual({ runtimeEndpoint: 'unix:///cfg.sock', imageEndpoint: 'unix:///cfgimg.sock', source: 'config' });
  });

  it('takes "embedded" for an endpoint, and --embedded over everything', async () => {
    for (const c of [
      await chooseBackend({ runtimeEndpointFlag: 'embedded', config: {}, env: noKnown }),
      await chooseBackend({ config: {}, env: { ...noKnown, CONTAINER_RUNTIME_ENDPOINT: 'embedded' } }),
      await chooseBackend({ config: { 'runtime-endpoint': 'embedded' }, env: noKnown }),
      await chooseBackend({ embeddedFlag: true, runtimeEndpointFlag: 'unix:///flag.sock', config: {}, env: noKnown }),
      await chooseBackend({ config: {}, env: noKnown, root: '/tmp/r' }),
    ]) {
      expect(c).toMatchObject({ source: 'embedded', explicit: true });
      expect(c.runtimeEndpoint).toBeUndefined();
      expect(choiceNote(c, true)).toBeUndefined();
    }
  });

  it('lists our daemon first, then crictl 1.34\'s sockets with iSulad before cri-dockerd; the env var replaces the foreign ones', () => {
    expect(knownEndpoints({}).map((k) => k.endpoint)).toEqual([
      'unix:///var/run/isulats/isulats.sock',
      'unix:///run/containerd/containerd.sock',
      'unix:///run/crio/crio.sock',
      'unix:///var/run/isulad.sock',
      'unix:///var/run/cri-dockerd.sock',
    ]);
    expect(knownEndpoints({ ISULATS_DAEMON_SOCKET: 'unix:///tmp/d.sock', ISULATS_KNOWN_ENDPOINTS: 'unix:///tmp/a.sock, unix:///tmp/b.sock' }).map((k) => k.endpoint))
      .toEqual(['unix:///tmp/d.sock', 'unix:///tmp/a.sock', 'unix:///tmp/b.sock']);
    expect(knownEndpoints({ ISULATS_DAEMON_SOCKET: '/tmp/d.sock', ISULATS_KNOWN_ENDPOINTS: '' }).map((k) => k.endpoint)).toEqual(['unix:///tmp/d.sock']);
  });

  describe('with CRI peers on the known sockets', () => {
    let dir: string;
    const servers: Http2Server[] = [];
    afterEach(async () => {
      for (const s of servers.splice(0)) {
        s.close();
        await new Promise<void>((r) => setImmediate(r));
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('uses the daemon unless --root or --state is given, and takes its socket as a path or a unix:// URL', async () => {
      dir = mkdtempSync(join(tmpdir(), 'isd-'));
      const sock = join(dir, 's.sock');
      servers.push((await grpcPeer(sock, 0)).server);
      expect((await chooseBackend({ config: {}, env: noKnown, daemonSocket: sock })).source).toBe('daemon');
      const viaUrl = await chooseBackend({ config: {}, env: { ...noKnown, ISULATS_DAEMON_SOCKET: `unix://${sock}` } });
      expect(viaUrl).toMatchObject({ source: 'daemon', runtimeEndpoint: `unix://${sock}`, imageEndpoint: `unix://${sock}` });
      expect(choiceNote(viaUrl, false)).toContain(`using runtime endpoint unix://${sock}`);
      expect((await chooseBackend({ config: {}, env: noKnown, daemonSocket: sock, root: '/tmp/r' })).source).toBe('embedded');
    });

    it('takes the first known socket that answers Version, in order, skipping stale files and non-CRI peers', async () => {
      dir = mkdtempSync(join(tmpdir(), 'isd-'));
      const stale = join(dir, 'stale.sock');
      writeFileSync(stale, '');
      const notCri = await grpcPeer(join(dir, 'other.sock'), 12); // a gRPC server without the CRI service
      const old = await grpcPeer(join(dir, 'old.sock'), (path) => (path.startsWith('/runtime.v1alpha2.') ? 0 : 12)); // v1alpha2 only
      const later = await grpcPeer(join(dir, 'later.sock'), 0);
      servers.push(notCri.server, old.server, later.server);
      const env = { ISULATS_KNOWN_ENDPOINTS: ['stale', 'other', 'old', 'later'].map((n) => `unix://${join(dir, `${n}.sock`)}`).join(',') };
      const c = await chooseBackend({ config: {}, env, daemonSocket: noDaemon });
      expect(c).toMatchObject({ source: 'probe', runtimeEndpoint: `unix://${join(dir, 'old.sock')}` });
      expect(c.tried!.map((t) => t.reason)).toEqual(['no such socket', 'nothing listens on it', 'no CRI runtime service']);
      expect(notCri.paths).toEqual(['/runtime.v1.RuntimeService/Version', '/runtime.v1alpha2.RuntimeService/Version']);
      expect(old.paths).toEqual(['/runtime.v1.RuntimeService/Version', '/runtime.v1alpha2.RuntimeService/Version']);
      expect(later.paths).toEqual([]);
    });

    it('gives up on a peer that does not answer within the deadline', async () => {
      dir = mkdtempSync(join(tmpdir(), 'isd-'));
      const hang = await grpcPeer(join(dir, 'hang.sock'), 'hang');
      servers.push(hang.server);
      const c = await chooseBackend({ config: {}, env: { ISULATS_KNOWN_ENDPOINTS: `unix://${join(dir, 'hang.sock')}` }, daemonSocket: noDaemon, probeTimeoutMs: 100 });
      expect(c).toMatchObject({ source: 'embedded', explicit: false });
      expect(c.tried![1].reason).toMatch(/no answer within 100 ms/);
      expect(choiceNote(c, true)).toMatch(/no CRI runtime answered on the known sockets \(unix:\/\/.*hang\.sock: no answer within 100 ms\); using the embedded engine/);
      expect(choiceNote(c, false)).toBeUndefined();
    });
  });

  it('falls back to the embedded engine; a stale socket file does not count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isd-'));
    const sock = join(dir, 'stale.sock');
    writeFileSync(sock, '');
    try {
      const c = await chooseBackend({ config: {}, env: noKnown, daemonSocket: sock });
      expect(c).toMatchObject({ source: 'embedded', explicit: false });
      // A stale file is not worth naming in the note; a read-only verb gets none.
      expect(choiceNote(c, true)).toBe('isulats: no CRI runtime answered on the known sockets; using the embedded engine (--embedded says so and silences this)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('grpcTarget', () => {
  it.each([
    ['unix:///run/containerd/containerd.sock', 'unix:///run/containerd/containerd.sock'],
    ['/run/x.sock', 'unix:///run/x.sock'],
    ['tcp://127.0.0.1:1234', '127.0.0.1:1234'],
    ['localhost:99', 'localhost:99'],
  ])('%s -> %s', (e, t) => expect(grpcTarget(e)).toBe(t));

  it.each(['', 'unix://relative.sock', 'http://x'])('rejects %j', (e) => expect(() => grpcTarget(e)).toThrow());
});

describe('client config file', () => {
  it('reads a crictl.yaml', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isc-'));
    const p = join(dir, 'crictl.yaml');
    writeFileSync(p, 'runtime-endpoint: unix:///run/containerd/containerd.sock\nimage-endpoint: unix:///run/containerd/containerd.sock\ntimeout: 10\ndebug: false\npull-image-on-create: true\n');
    try {
      expect(await readClientConfig(p, true)).toEqual({
        'runtime-endpoint': 'unix:///run/containerd/containerd.sock',
        'image-endpoint': 'unix:///run/containerd/containerd.sock',
        timeout: 10,
        debug: false,
        'pull-image-on-create': true,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['runtime-endpoint: [unclosed', /not valid YAML/],
    ['bogus-key: 1', /unknown key "bogus-key"/],
    ['timeout: soon', /must be a number/],
    ['- a list', /must be a mapping/],
  ])('rejects %j with a clear error', async (text, re) => {
    const dir = mkdtempSync(join(tmpdir(), 'isc-'));
    const p = join(dir, 'c.yaml');
    writeFileSync(p, text);
    try {
      await expect(readClientConfig(p, true)).rejects.toThrow(re);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('treats a missing default file as empty but a missing explicit file as an error', async () => {
    expect(await readClientConfig('/nonexistent/isulats.yaml', false)).toEqual({});
    await expect(readClientConfig('/nonexistent/isulats.yaml', true)).rejects.toThrow(/reading config file/);
  });

  it('parses values for config set', () => {
    expect(parseConfigValue('timeout', '10')).toBe(10);
    expect(parseConfigValue('debug', 'true')).toBe(true);
    expect(() => parseConfigValue('debug', 'yes')).toThrow(/true or false/);
    expect(() => parseConfigValue('nope', 'x')).toThrow(/unknown config key/);
  });
});
