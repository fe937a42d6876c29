import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { freePort } from '../rig/free-port.js';
import { stopPid } from '../rig/proc.js';
import { startRegistry, type Registry } from '../rig/registry.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { waitFor } from '../rig/wait.js';
import { layer, pushImage } from './image-fixtures.js';

let registry: Registry;
let dir: string;
let configDigest: string;
let n = 0;
const open = (extra: Partial<Parameters<typeof ImageService.open>[0]> = {}) => {
  const i = n++;
  return ImageService.open({ root: join(dir, `r${i}`), state: join(dir, `s${i}`), authFile: join(dir, `a${i}.json`), ...extra });
};

beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  registry = await startRegistry();
  dir = await makeTempDir('ist-mirror-');
  // What docker.io/library/mirrored:1 and registry.k8s.io/pause-mirrored:1 resolve to offline.
  const l = await layer([{ name: 'm', type: 'file', data: 'mirrored' }]);
  configDigest = (await pushImage({ url: registry.url }, 'library/mirrored', '1', [l])).configDigest;
  await pushImage({ url: registry.url }, 'pause-mirrored', '1', [l]);
});
afterAll(async () => {
  await registry?.stop();
  if (dir) await removeTempDir(dir);
});

describe('mirrors', () => {
  it('resolves a short docker.io name through a hosts.toml mirror', async () => {
    const cfg = join(dir, 'certs.d');
    mkdirSync(join(cfg, 'docker.io'), { recursive: true });
    writeFileSync(join(cfg, 'docker.io', 'hosts.toml'), `server = "https://registry-1.docker.io"\n[host."http://${registry.host}"]\n  capabilities = ["pull", "resolve"]\n`);
    const svc = await open({ registryConfigDir: cfg });
    expect((await svc.pullImage({ image: { image: 'mirrored:1' } })).imageRef).toBe(configDigest);
    expect((await svc.listImages({})).images[0]!.repoTags).toEqual(['docker.io/library/mirrored:1']);
  });

  it('uses the _default hosts.toml for other registries', async () => {
    const cfg = join(dir, 'certs-default.d');
    mkdirSync(join(cfg, '_default'), { recursive: true });
    writeFileSync(join(cfg, '_default', 'hosts.toml'), `[host."http://${registry.host}"]\n  capabilities = ["pull", "resolve"]\n`);
    const svc = await open({ registryConfigDir: cfg });
    expect((await svc.pullImage({ image: { image: 'registry.k8s.io/pause-mirrored:1' } })).imageRef).toBe(configDigest);
  });

  it('uses daemon.json registry-mirrors for docker.io, skipping a dead mirror', async () => {
    const dead = `127.0.0.1:${await freePort()}`;
    const svc = await open({ registryMirrors: [`http://${dead}`, registry.host] });
    expect((await svc.pullImage({ image: { image: 'docker.io/library/mirrored:1' } })).imageRef).toBe(configDigest);
  });
});

describe('an insecure registry with a self-signed certificate', () => {
  let tlsDir: string;
  let pid: number | undefined;
  let host: string;

  beforeAll(async () => {
    tlsDir = await makeTempDir('ist-tls-');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(tlsDir, 'key.pem'), '-out', join(tlsDir, 'cert.pem'), '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    const port = await freePort();
    // Not a loopback name TLS-wise: 127.0.0.1 with TLS must be configured explicitly to skip verification.
    host = `127.0.0.1:${port}`;
    const config = {
      version: '0.1',
      log: { level: 'error' },
      storage: { filesystem: { rootdirectory: join(tlsDir, 'storage') } },
      http: { addr: host, tls: { certificate: join(tlsDir, 'cert.pem'), key: join(tlsDir, 'key.pem') } },
    };
    writeFileSync(join(tlsDir, 'config.yml'), JSON.stringify(config));
    const child = spawn('/usr/bin/docker-registry', ['serve', join(tlsDir, 'config.yml')], { stdio: 'ignore' });
    pid = child.pid;
    child.unref();
    await waitFor(
      async () => {
        try {
          execFileSync('curl', ['-sk', '-o', '/dev/null', `https://${host}/v2/`], { timeout: 2000 });
          return true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 20_000, what: 'TLS registry' },
    );
    // Push through skopeo, which speaks TLS with --dest-tls-verify=false.
    const svc = await open();
    await svc.pullImage({ image: { image: `${registry.host}/library/mirrored:1` } });
    const tar = join(tlsDir, 'img.tar');
    await svc.save([`${registry.host}/library/mirrored:1`], tar, 'oci-archive');
    execFileSync('skopeo', ['copy', '-q', '--dest-tls-verify=false', `oci-archive:${tar}`, `docker://${host}/secure/app:1`]);
  });
  afterAll(async () => {
    if (pid) await stopPid(pid, 5_000);
    if (tlsDir) await removeTempDir(tlsDir);
  });

  it('is refused without configuration, since the certificate is not trusted', async () => {
    const cfg = join(tlsDir, 'https-only.d');
    mkdirSync(join(cfg, host), { recursive: true });
    writeFileSync(join(cfg, host, 'hosts.toml'), `server = "https://${host}"\n`);
    const svc = await open({ registryConfigDir: cfg });
    await expect(svc.pullImage({ image: { image: `${host}/secure/app:1` } })).rejects.toThrow(/self[- ]signed|certificate/i);
  });

  it('is reached with skip_verify, with its CA file, and as a daemon.json insecure registry', async () => {
    for (const body of [`server = "https://${host}"\nskip_verify = true\n`, `server = "https://${host}"\nca = "${join(tlsDir, 'cert.pem')}"\n`]) {
      const cfg = join(tlsDir, `cfg${n}.d`);
      mkdirSync(join(cfg, host), { recursive: true });
      writeFileSync(join(cfg, host, 'hosts.toml'), body);
      const svc = await open({ registryConfigDir: cfg });
      expect((await svc.pullImage({ image: { image: `${host}/secure/app:1` } })).imageRef).toBe(configDigest);
    }
    const localhostName = `localhost:${host.split(':')[1]}`;
    const svc = await open({ insecureRegistries: [localhostName] });
    expect((await svc.pullImage({ image: { image: `${localhostName}/secure/app:1` } })).imageRef).toBe(configDigest);
  });
});
