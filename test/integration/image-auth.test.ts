import { execFileSync } from 'node:child_process';
import { createSign, randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageService } from '../../src/runtime/image/image-service.js';
import { startRegistry, type Registry } from '../rig/registry.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';
import { layer, pushImage } from './image-fixtures.js';

let dir: string;
beforeAll(async () => {
  execFileSync('node', ['scripts/build-native.mjs'], { stdio: 'inherit' });
  dir = await makeTempDir('ist-auth-');
});
afterAll(async () => {
  if (dir) await removeTempDir(dir);
});

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
let n = 0;
const open = (extra: Partial<Parameters<typeof ImageService.open>[0]> = {}) => {
  const i = n++;
  return ImageService.open({ root: join(dir, `r${i}`), state: join(dir, `s${i}`), authFile: join(dir, `auths${i}.json`), ...extra });
};

describe('htpasswd basic auth', () => {
  let registry: Registry;
  beforeAll(async () => {
    registry = await startRegistry({ htpasswd: { alice: 'wonderland' } });
    await pushImage({ url: registry.url, authorization: basic('alice', 'wonderland') }, 'private/app', 'v1', [
      await layer([{ name: 'secret', type: 'file', data: 's' }]),
    ]);
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it('fails clearly without credentials and with wrong ones', async () => {
    const svc = await open();
    const ref = `${registry.host}/private/app:v1`;
    await expect(svc.pullImage({ image: { image: ref } })).rejects.toThrow(/requires a username and password/);
    await expect(svc.pullImage({ image: { image: ref }, auth: { username: 'alice', password: 'nope' } })).rejects.toThrow(/unauthorized/);
  });

  it('pulls with AuthConfig username/password and with the auth field', async () => {
    const svc = await open();
    const ref = `${registry.host}/private/app:v1`;
    expect((await svc.pullImage({ image: { image: ref }, auth: { username: 'alice', password: 'wonderland' } })).imageRef).toMatch(/^sha256:/);
    const other = await open();
    const auth = Buffer.from('alice:wonderland').toString('base64');
    expect((await other.pullImage({ image: { image: ref }, auth: { auth } })).imageRef).toMatch(/^sha256:/);
  });

  it('uses credentials stored by login, refuses bad logins, and forgets them on logout', async () => {
    const authFile = join(dir, 'login-auths.json');
    const svc = await open({ authFile });
    await expect(svc.login(registry.host, 'alice', 'bad')).rejects.toThrow(/unauthorized/);
    await svc.login(registry.host, 'alice', 'wonderland');
    expect(statSync(authFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(authFile, 'utf8')).not.toContain('wonderland');
    expect((await svc.pullImage({ image: { image: `${registry.host}/private/app:v1` } })).imageRef).toMatch(/^sha256:/);
    expect(await svc.logout(registry.host)).toBe(true);
    const fresh = await open({ authFile });
    await expect(fresh.pullImage({ image: { image: `${registry.host}/private/app:v1` } })).rejects.toThrow(/username and password/);
  });
});

/** A token server as docker-registry's `auth: token` expects: RS256 JWTs with the libtrust kid. */
async function startTokenServer(users: Record<string, string>): Promise<{ server: Server; url: string; requests: string[]; configure(r: Registry): void }> {
  let reg: Registry | undefined;
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    let scopes = u.searchParams.getAll('scope');
    let subject = '';
    if (req.method === 'POST') {
      // OAuth2 refresh-token grant (identity tokens): form body with grant_type, refresh_token, scope.
      let text = '';
      for await (const chunk of req) text += chunk;
      const form = new URLSearchParams(text);
      if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== 'refresh-bob') {
        res.writeHead(401).end('{"details":"bad refresh token"}');
        return;
      }
      subject = 'bob';
      scopes = (form.get('scope') ?? '').split(' ').filter(Boolean);
    }
    requests.push(scopes.join(' '));
    const header = req.headers.authorization;
    if (header?.startsWith('Basic ')) {
      const [user, pass] = Buffer.from(header.slice(6), 'base64').toString().split(':');
      if (users[user!] !== pass) {
        res.writeHead(401).end('{"details":"bad credentials"}');
        return;
      }
      subject = user!;
    }
    const access = scopes.map((s) => {
      const [type, name, actions] = s.split(':');
      // Anonymous users may pull public/*, authenticated users anything.
      const allowed = subject || name!.startsWith('public/') ? actions!.split(',') : [];
      return { type, name, actions: allowed };
    });
    const t = reg!.token!;
    const now = Math.floor(Date.now() / 1000);
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const head = enc({ alg: 'RS256', typ: 'JWT', kid: t.keyId });
    const body = enc({ iss: t.issuer, sub: subject, aud: t.service, exp: now + 300, nbf: now - 10, iat: now, jti: randomBytes(8).toString('hex'), access });
    const signature = createSign('RSA-SHA256').update(`${head}.${body}`).sign(readFileSync(t.keyPath)).toString('base64url');
    const token = `${head}.${body}.${signature}`;
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(req.method === 'POST' ? { access_token: token, expires_in: 300 } : { token, expires_in: 300 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
  return { server, url, requests, configure: (r) => (reg = r) };
}

describe('bearer token auth against the registry’s real token verification', () => {
  let registry: Registry;
  let tokens: Awaited<ReturnType<typeof startTokenServer>>;

  async function pushToken(repo: string): Promise<string> {
    const res = await fetch(`${tokens.url}?service=${encodeURIComponent(registry.token!.service)}&scope=repository:${repo}:pull,push`, {
      headers: { Authorization: basic('bob', 'builder') },
    });
    return `Bearer ${((await res.json()) as { token: string }).token}`;
  }

  beforeAll(async () => {
    tokens = await startTokenServer({ bob: 'builder' });
    registry = await startRegistry({ token: { realm: tokens.url } });
    tokens.configure(registry);
    const l1 = await layer([{ name: 'a', type: 'file', data: 'a' }]);
    const l2 = await layer([{ name: 'b', type: 'file', data: 'b' }]);
    await pushImage({ url: registry.url, authorization: await pushToken('public/app') }, 'public/app', 'v1', [l1, l2]);
    await pushImage({ url: registry.url, authorization: await pushToken('team/app') }, 'team/app', 'v1', [l1]);
  });
  afterAll(async () => {
    await registry?.stop();
    await new Promise((resolve) => tokens?.server.close(resolve));
  });

  it('pulls anonymously with a token for the repository scope, reusing it across requests', async () => {
    const svc = await open();
    const before = tokens.requests.length;
    expect((await svc.pullImage({ image: { image: `${registry.host}/public/app:v1` } })).imageRef).toMatch(/^sha256:/);
    const asked = tokens.requests.slice(before);
    expect(asked).toEqual(['repository:public/app:pull']);
  });

  it('sends credentials to the token server for private repositories', async () => {
    const svc = await open();
    await expect(svc.pullImage({ image: { image: `${registry.host}/team/app:v1` } })).rejects.toThrow(/unauthorized/);
    expect((await svc.pullImage({ image: { image: `${registry.host}/team/app:v1` }, auth: { username: 'bob', password: 'builder' } })).imageRef).toMatch(
      /^sha256:/,
    );
    await expect(svc.pullImage({ image: { image: `${registry.host}/team/app:v1` }, auth: { username: 'bob', password: 'x' } })).rejects.toThrow(
      /token server .* answered 401/,
    );
  });

  it('exchanges an identity token for an access token with the OAuth2 refresh-token grant', async () => {
    const svc = await open();
    expect((await svc.pullImage({ image: { image: `${registry.host}/team/app:v1` }, auth: { identityToken: 'refresh-bob' } })).imageRef).toMatch(/^sha256:/);
    await expect(svc.pullImage({ image: { image: `${registry.host}/team/app:v1` }, auth: { identityToken: 'stolen' } })).rejects.toThrow(/answered 401/);
  });

  it('uses a registry token from AuthConfig as is', async () => {
    const svc = await open();
    const token = (await pushToken('team/app')).slice(7);
    const before = tokens.requests.length;
    expect((await svc.pullImage({ image: { image: `${registry.host}/team/app:v1` }, auth: { registryToken: token } })).imageRef).toMatch(/^sha256:/);
    expect(tokens.requests.length).toBe(before);
  });
});
