import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostsToml, resolveEndpoints } from '../../src/runtime/image/registry-hosts.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ist-hosts-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('hosts.toml', () => {
  it('lists mirrors in file order before the server', () => {
    const eps = parseHostsToml(
      `server = "https://registry-1.docker.io"
[host."http://127.0.0.1:5002"]
  capabilities = ["pull", "resolve"]
[host."https://mirror.example:8443/prefix"]
  capabilities = ["pull"]
  skip_verify = true
  [host."https://mirror.example:8443/prefix".header]
    x-token = "abc"
`,
      'docker.io',
      dir,
    );
    expect(eps.map((e) => e.url)).toEqual(['http://127.0.0.1:5002/v2', 'https://mirror.example:8443/prefix/v2', 'https://registry-1.docker.io/v2']);
    expect(eps[1]).toMatchObject({ capabilities: ['pull'], skipVerify: true, headers: { 'x-token': 'abc' }, mirror: true });
    expect(eps[2]!.mirror).toBe(false);
  });

  it('honours override_path and reads CA files relative to the host dir', async () => {
    await writeFile(join(dir, 'ca.pem'), 'PEM');
    const eps = parseHostsToml(`[host."https://m.example/api/v2/x"]\n override_path = true\n ca = "ca.pem"\n`, 'quay.io', dir);
    expect(eps[0]!.url).toBe('https://m.example/api/v2/x');
    expect(eps[0]!.ca).toEqual(['PEM']);
    expect(eps[1]!.url).toBe('https://quay.io/v2');
  });

  it('rejects invalid TOML with the registry named', () => {
    expect(() => parseHostsToml('server = ', 'quay.io', dir)).toThrow(/hosts.toml for quay.io/);
  });

  it('finds <dir>/<host>/hosts.toml, else _default, else built-in rules', async () => {
    await mkdir(join(dir, 'cfg', 'registry.k8s.io'), { recursive: true });
    await writeFile(join(dir, 'cfg', 'registry.k8s.io', 'hosts.toml'), '[host."http://127.0.0.1:5003"]\n');
    expect(resolveEndpoints('registry.k8s.io', { configDir: join(dir, 'cfg') }).map((e) => e.url)).toEqual([
      'http://127.0.0.1:5003/v2',
      'https://registry.k8s.io/v2',
    ]);
    expect(resolveEndpoints('quay.io', { configDir: join(dir, 'cfg') }).map((e) => e.url)).toEqual(['https://quay.io/v2']);
  });
});

describe('daemon.json rules', () => {
  it('lets loopback registries fall back to plain http without configuration', () => {
    expect(resolveEndpoints('127.0.0.1:5001')).toMatchObject([{ url: 'https://127.0.0.1:5001/v2', skipVerify: true, httpFallback: true, mirror: false }]);
    expect(resolveEndpoints('localhost:5001')[0]).toMatchObject({ httpFallback: true });
    expect(resolveEndpoints('quay.io')[0]).toMatchObject({ skipVerify: false, httpFallback: false });
  });

  it('puts registry-mirrors before docker.io only', () => {
    const opts = { mirrors: ['https://mirror.example', '127.0.0.1:5009'] };
    expect(resolveEndpoints('docker.io', opts).map((e) => e.url)).toEqual([
      'https://mirror.example/v2',
      'https://127.0.0.1:5009/v2',
      'https://registry-1.docker.io/v2',
    ]);
    expect(resolveEndpoints('quay.io', opts).map((e) => e.url)).toEqual(['https://quay.io/v2']);
    expect(resolveEndpoints('docker.io', opts)[1]).toMatchObject({ httpFallback: true, mirror: true });
  });

  it('marks insecure registries: TLS unverified with http fallback', () => {
    expect(resolveEndpoints('reg.local:5000', { insecure: ['reg.local:5000'] })[0]).toMatchObject({
      url: 'https://reg.local:5000/v2',
      skipVerify: true,
      httpFallback: true,
    });
  });
});
