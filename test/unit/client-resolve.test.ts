import { describe, expect, it, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { chooseBackend } from '../../src/client/resolve.js';
import { grpcTarget } from '../../src/client/endpoint.js';
import { readClientConfig, parseConfigValue } from '../../src/client/config-file.js';

const noDaemon = '/nonexistent/isulats.sock';

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

  describe('with a live daemon socket', () => {
    let dir: string;
    let server: Server;
    afterEach(() => {
      server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('uses the daemon unless --root or --state is given', async () => {
      dir = mkdtempSync(join(tmpdir(), 'isd-'));
      const sock = join(dir, 's.sock');
      server = createServer(() => {});
      await new Promise<void>((r) => server.listen(sock, r));
      expect((await chooseBackend({ config: {}, env: {}, daemonSocket: sock })).source).toBe('daemon');
      expect((await chooseBackend({ config: {}, env: {}, daemonSocket: sock, root: '/tmp/r' })).source).toBe('embedded');
    });
  });

  it('falls back to the embedded engine; a stale socket file does not count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'isd-'));
    const sock = join(dir, 'stale.sock');
    writeFileSync(sock, '');
    try {
      expect((await chooseBackend({ config: {}, env: {}, daemonSocket: sock })).source).toBe('embedded');
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
