// Registry authentication pieces: WWW-Authenticate parsing, credentials
// (request AuthConfig, auths file), and bearer token caching.
import { mkdir, chmod } from 'node:fs/promises';
import { dirname } from 'node:path';
import { readJson, writeJsonAtomic } from '../store/atomic-file.js';
import { withFileLock } from '../store/lock.js';

export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses `Bearer realm="...",service="...",scope="..."` (several challenges may be comma-joined). */
export function parseWwwAuthenticate(header: string): AuthChallenge[] {
  const out: AuthChallenge[] = [];
  let i = 0;
  const s = header;
  const skipSpace = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  const token = () => {
    const start = i;
    while (i < s.length && /[!#$%&'*+\-.^_`|~0-9A-Za-z]/.test(s[i]!)) i++;
    return s.slice(start, i);
  };
  while (i < s.length) {
    skipSpace();
    if (s[i] === ',') {
      i++;
      continue;
    }
    const scheme = token();
    if (!scheme) {
      i++;
      continue;
    }
    const challenge: AuthChallenge = { scheme: scheme.toLowerCase(), params: {} };
    out.push(challenge);
    for (;;) {
      skipSpace();
      const save = i;
      const key = token();
      skipSpace();
      if (!key || s[i] !== '=') {
        i = save;
        break;
      }
      i++;
      skipSpace();
      let value = '';
      if (s[i] === '"') {
        i++;
        while (i < s.length && s[i] !== '"') {
          if (s[i] === '\\' && i + 1 < s.length) i++;
          value += s[i];
          i++;
        }
        i++;
      } else {
        const start = i;
        while (i < s.length && s[i] !== ',' && s[i] !== ' ') i++;
        value = s.slice(start, i);
      }
      challenge.params[key.toLowerCase()] = value;
      skipSpace();
      if (s[i] === ',') i++;
    }
  }
  return out;
}

/** Credentials for one registry, in any of the CRI AuthConfig forms. */
export interface RegistryCredentials {
  username?: string;
  password?: string;
  /** OAuth2 refresh token (AuthConfig.identity_token). */
  identityToken?: string;
  /** A bearer token to send as is (AuthConfig.registry_token). */
  registryToken?: string;
}

/** CRI AuthConfig (lowerCamelCase) to credentials; `auth` is base64("user:password"). */
export function credentialsFromAuthConfig(auth: {
  username?: string;
  password?: string;
  auth?: string;
  identityToken?: string;
  registryToken?: string;
} | undefined): RegistryCredentials | undefined {
  if (!auth) return undefined;
  const creds: RegistryCredentials = {};
  if (auth.username) creds.username = auth.username;
  if (auth.password) creds.password = auth.password;
  if (auth.auth && !creds.username) {
    const decoded = Buffer.from(auth.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) {
      creds.username = decoded.slice(0, colon);
      creds.password = decoded.slice(colon + 1);
    }
  }
  if (auth.identityToken) creds.identityToken = auth.identityToken;
  if (auth.registryToken) creds.registryToken = auth.registryToken;
  return Object.keys(creds).length ? creds : undefined;
}

interface AuthsFile {
  auths: Record<string, { auth: string }>;
}

/** Normalises a server name as login stores it: host[:port], docker.io for Docker Hub. */
export function normaliseServer(server: string): string {
  let s = server.trim().replace(/^[a-z]+:\/\//i, '');
  s = s.split('/')[0]!;
  if (s === 'index.docker.io' || s === 'registry-1.docker.io') s = 'docker.io';
  return s;
}

/** The login store: {"auths": {"host": {"auth": base64(user:pass)}}}, mode 0600. */
export class AuthsFileStore {
  constructor(readonly path: string) {}

  async get(server: string): Promise<RegistryCredentials | undefined> {
    const file = await readJson<AuthsFile>(this.path, { auths: {} }).catch(() => ({ auths: {} }) as AuthsFile);
    const entry = file.auths?.[normaliseServer(server)];
    return entry ? credentialsFromAuthConfig({ auth: entry.auth }) : undefined;
  }

  async set(server: string, username: string, password: string): Promise<void> {
    await this.update((f) => {
      f.auths[normaliseServer(server)] = { auth: Buffer.from(`${username}:${password}`).toString('base64') };
    });
  }

  /** Returns false when there was nothing stored for the server. */
  async remove(server: string): Promise<boolean> {
    let had = false;
    await this.update((f) => {
      had = normaliseServer(server) in f.auths;
      delete f.auths[normaliseServer(server)];
    });
    return had;
  }

  private async update(change: (f: AuthsFile) => void): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await withFileLock(`${this.path}.lock`, async () => {
      const file = await readJson<AuthsFile>(this.path, { auths: {} });
      file.auths ??= {};
      change(file);
      await writeJsonAtomic(this.path, file, 0o600);
      await chmod(this.path, 0o600);
    });
  }
}

/** Bearer tokens, reused per (realm, service, scope, identity) until they expire. */
export class TokenCache {
  private readonly tokens = new Map<string, { token: string; expires: number }>();

  get(key: string): string | undefined {
    const hit = this.tokens.get(key);
    if (!hit) return undefined;
    if (Date.now() >= hit.expires) {
      this.tokens.delete(key);
      return undefined;
    }
    return hit.token;
  }

  set(key: string, token: string, expiresInSec?: number): void {
    // Refresh a little early; registries default to 60 s when they say nothing.
    const ttl = Math.max(10, (expiresInSec && expiresInSec > 0 ? expiresInSec : 60) - 5);
    this.tokens.set(key, { token, expires: Date.now() + ttl * 1000 });
  }
}
