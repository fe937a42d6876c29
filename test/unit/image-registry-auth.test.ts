import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { AuthsFileStore, credentialsFromAuthConfig, parseWwwAuthenticate, TokenCache } from '../../src/runtime/image/registry-auth.js';

describe('WWW-Authenticate parsing', () => {
  it('reads a bearer challenge with quoted params', () => {
    const got = parseWwwAuthenticate('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"');
    expect(got).toEqual([
      { scheme: 'bearer', params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:library/busybox:pull' } },
    ]);
  });

  it('reads a basic challenge and unquoted values', () => {
    expect(parseWwwAuthenticate('Basic realm=isulats')).toEqual([{ scheme: 'basic', params: { realm: 'isulats' } }]);
  });

  it('reads several challenges and escaped quotes', () => {
    const got = parseWwwAuthenticate('Basic realm="a\\"b", Bearer realm="http://x/t",service="s"');
    expect(got.map((c) => c.scheme)).toEqual(['basic', 'bearer']);
    expect(got[0]!.params.realm).toBe('a"b');
    expect(got[1]!.params.service).toBe('s');
  });

  it('keeps scopes with spaces and colons intact', () => {
    const got = parseWwwAuthenticate('Bearer realm="r",scope="repository:a/b:pull repository:c:pull,push"');
    expect(got[0]!.params.scope).toBe('repository:a/b:pull repository:c:pull,push');
  });
});

describe('credentials', () => {
  it('decodes AuthConfig.auth as base64 user:password', () => {
    expect(credentialsFromAuthConfig({ auth: Buffer.from('me:pa:ss').toString('base64') })).toEqual({ username: 'me', password: 'pa:ss' });
  });

  it('prefers explicit username/password and keeps tokens', () => {
    expect(credentialsFromAuthConfig({ username: 'u', password: 'p', identityToken: 'id', registryToken: 'rt' })).toEqual({
      username: 'u',
      password: 'p',
      identityToken: 'id',
      registryToken: 'rt',
    });
    expect(credentialsFromAuthConfig({})).toBeUndefined();
  });

  it('stores logins with mode 0600 and forgets them on logout', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ist-auths-'));
    try {
      const store = new AuthsFileStore(join(dir, 'sub', 'auths.json'));
      await store.set('https://127.0.0.1:5001/', 'alice', 'secret');
      expect((await stat(join(dir, 'sub', 'auths.json'))).mode & 0o777).toBe(0o600);
      expect(await store.get('127.0.0.1:5001')).toEqual({ username: 'alice', password: 'secret' });
      expect(await store.remove('127.0.0.1:5001')).toBe(true);
      expect(await store.get('127.0.0.1:5001')).toBeUndefined();
      expect(await store.remove('127.0.0.1:5001')).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reuses cached tokens until shortly before they expire', () => {
    vi.useFakeTimers();
    try {
      const cache = new TokenCache();
      cache.set('k', 't', 60);
      expect(cache.get('k')).toBe('t');
      vi.advanceTimersByTime(50_000);
      expect(cache.get('k')).toBe('t');
      vi.advanceTimersByTime(6_000);
      expect(cache.get('k')).toBeUndefined();
      expect(cache.get('missing')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
