// Where to reach a registry: containerd hosts.toml directories
// (<dir>/<host>/hosts.toml), iSulad daemon.json registry-mirrors and
// insecure-registries, and docker's rule that loopback registries may use
// plain http. The result is an ordered list of endpoints to try.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { invalidArgument } from '../errors.js';
import { DEFAULT_DOMAIN, isLoopbackHost, registryHost } from './reference.js';

export type Capability = 'pull' | 'resolve' | 'push';

export interface RegistryEndpoint {
  /** Base URL of the API root, e.g. "https://mirror.local:5000/v2". */
  url: string;
  capabilities: Capability[];
  skipVerify: boolean;
  /** PEM contents of extra CAs. */
  ca?: string[];
  headers: Record<string, string>;
  /** When https fails to connect (not an HTTP error), retry this endpoint over http. */
  httpFallback: boolean;
  /** True for mirrors (errors fall through to the next endpoint). */
  mirror: boolean;
}

export interface RegistryHostsOptions {
  /** containerd-style directory of <host>/hosts.toml files. */
  configDir?: string;
  /** iSulad `registry-mirrors`: mirrors of docker.io, tried before it. */
  mirrors?: string[];
  /** iSulad `insecure-registries`: hosts reached with TLS unverified, or over http. */
  insecure?: string[];
}

interface HostTable {
  capabilities?: string[];
  skip_verify?: boolean;
  ca?: string | string[];
  header?: Record<string, string | string[]>;
  override_path?: boolean;
  server?: string;
  host?: Record<string, HostTable>;
}

function apiUrl(raw: string, overridePath: boolean, defaultScheme: string): string {
  const withScheme = /^[a-z]+:\/\//i.test(raw) ? raw : `${defaultScheme}://${raw}`;
  const u = new URL(withScheme);
  let path = u.pathname.replace(/\/+$/, '');
  if (!overridePath) path = `${path}/v2`;
  return `${u.protocol}//${u.host}${path}`;
}

function headers(h: HostTable['header']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  return out;
}

function readCa(ca: HostTable['ca'], baseDir: string): string[] | undefined {
  if (!ca) return undefined;
  const list = Array.isArray(ca) ? ca : [ca];
  return list.map((file) => readFileSync(file.startsWith('/') ? file : join(baseDir, file), 'utf8'));
}

function capabilities(list: string[] | undefined, fallback: Capability[]): Capability[] {
  if (!list) return fallback;
  return list.filter((c): c is Capability => c === 'pull' || c === 'resolve' || c === 'push');
}

/** Parses one hosts.toml (the text) for `domain`; `baseDir` resolves relative CA paths. */
export function parseHostsToml(text: string, domain: string, baseDir: string): RegistryEndpoint[] {
  let table: HostTable;
  try {
    table = parseToml(text) as HostTable;
  } catch (error) {
    throw invalidArgument(`invalid hosts.toml for ${domain}: ${(error as Error).message}`);
  }
  const out: RegistryEndpoint[] = [];
  for (const [key, host] of Object.entries(table.host ?? {})) {
    out.push({
      url: apiUrl(key, host.override_path ?? false, 'https'),
      capabilities: capabilities(host.capabilities, ['pull', 'resolve', 'push']),
      skipVerify: host.skip_verify ?? false,
      ca: readCa(host.ca, baseDir),
      headers: headers(host.header),
      httpFallback: false,
      mirror: true,
    });
  }
  const server = table.server ?? `https://${registryHost(domain)}`;
  out.push({
    url: apiUrl(server, table.override_path ?? false, 'https'),
    capabilities: capabilities(table.capabilities, ['pull', 'resolve', 'push']),
    skipVerify: table.skip_verify ?? false,
    ca: readCa(table.ca, baseDir),
    headers: headers(table.header),
    httpFallback: false,
    mirror: false,
  });
  return out;
}

function hostOf(entry: string): string {
  return entry.replace(/^[a-z]+:\/\//i, '').split('/')[0]!;
}

/** The endpoints to try for a registry domain, in order. */
export function resolveEndpoints(domain: string, opts: RegistryHostsOptions = {}): RegistryEndpoint[] {
  if (opts.configDir) {
    const names = [domain, '_default'];
    for (const name of names) {
      const dir = join(opts.configDir, name);
      let text: string;
      try {
        text = readFileSync(join(dir, 'hosts.toml'), 'utf8');
      } catch {
        continue;
      }
      const eps = parseHostsToml(text, domain, dir);
      // _default's server applies to the registry being asked, not to a fixed host.
      if (name === '_default' && !/^\s*server\s*=/m.test(text)) eps[eps.length - 1]!.url = defaultEndpoint(domain, opts).url;
      return eps;
    }
  }
  const out: RegistryEndpoint[] = [];
  if (domain === DEFAULT_DOMAIN) {
    for (const m of opts.mirrors ?? []) {
      const insecure = (opts.insecure ?? []).some((i) => hostOf(i) === hostOf(m)) || isLoopbackHost(hostOf(m));
      const explicitScheme = /^[a-z]+:\/\//i.test(m);
      out.push({
        url: apiUrl(m, false, 'https'),
        capabilities: ['pull', 'resolve'],
        skipVerify: insecure,
        headers: {},
        httpFallback: insecure && !explicitScheme,
        mirror: true,
      });
    }
  }
  out.push(defaultEndpoint(domain, opts));
  return out;
}

function defaultEndpoint(domain: string, opts: RegistryHostsOptions): RegistryEndpoint {
  const host = registryHost(domain);
  // As docker: loopback registries and configured insecure ones are tried over
  // https without verification first, then over plain http.
  const insecure = isLoopbackHost(host) || (opts.insecure ?? []).some((i) => hostOf(i) === host || hostOf(i) === domain);
  return {
    url: `https://${host}/v2`,
    capabilities: ['pull', 'resolve', 'push'],
    skipVerify: insecure,
    headers: {},
    httpFallback: insecure,
    mirror: false,
  };
}
