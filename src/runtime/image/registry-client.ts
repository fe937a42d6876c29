// OCI distribution (Docker Registry HTTP API v2) client for pulls: manifest
// resolution and blob fetches across mirror endpoints, with anonymous, basic
// and bearer-token auth, redirects, and bounded retries with backoff on 5xx,
// 429 and reset connections. Every manifest is verified against its digest
// here; blobs are verified by the blob store as they are written.
import { createHash } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { IsulatsError } from '../errors.js';
import { MAX_MANIFEST_SIZE } from './descriptor-check.js';
import { checkDigest } from './digest.js';
import { MANIFEST_ACCEPT } from './manifest.js';
import type { ImageReference } from './reference.js';
import { parseWwwAuthenticate, TokenCache, type AuthChallenge, type RegistryCredentials } from './registry-auth.js';
import { resolveEndpoints, type RegistryEndpoint, type RegistryHostsOptions } from './registry-hosts.js';

export interface RegistryClientOptions extends RegistryHostsOptions {
  /** Credentials for a registry domain (request auth first, then the auths file). */
  credentials?: (domain: string) => Promise<RegistryCredentials | undefined>;
  /** Attempts per request on retryable failures (default 4). */
  attempts?: number;
  userAgent?: string;
  /**
   * Endpoint URLs (https) found to speak plain http, shared by the clients of one image service:
   * a later pull asks them over http at once instead of failing a TLS handshake first.
   */
  plainHttp?: Set<string>;
  /** Aborts when the pull's caller has gone: requests in flight are destroyed (their connections closed), retries stop. */
  signal?: AbortSignal;
  /** A request or download that receives nothing for this long fails (default PULL_PROGRESS_TIMEOUT_MS). */
  progressTimeoutMs?: number;
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  body: Buffer;
}

/** As Go's net/http client (containerd's): a redirect loop fails after 10 hops. */
export const MAX_REDIRECTS = 10;
/**
 * A registry that sends nothing for this long (no headers, or no body bytes mid-download) fails
 * the request; containerd's image_pull_progress_timeout is 5 minutes, kubelet's default runtime
 * request timeout 2. ISULATS_PULL_PROGRESS_TIMEOUT_MS overrides it.
 */
export const PULL_PROGRESS_TIMEOUT_MS = 60_000;

export function pullProgressTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env.ISULATS_PULL_PROGRESS_TIMEOUT_MS);
  return Number.isSafeInteger(value) && value > 0 ? value : PULL_PROGRESS_TIMEOUT_MS;
}
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
const RETRY_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'EAI_AGAIN', 'ERR_STREAM_PREMATURE_CLOSE']);

export class RegistryError extends IsulatsError {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(status === 401 || status === 403 ? 'failed-precondition' : status === 404 ? 'not-found' : 'unavailable', message);
    this.name = 'RegistryError';
  }
}

/** What the clients of one pull share (RegistryClient.withSignal). */
interface SharedClientState {
  tokens: TokenCache;
  challenges: Map<string, AuthChallenge[]>;
  downgraded: Set<string>;
  deadMirrors: Set<string>;
}

/** One repository on one registry: the unit of auth scope and endpoint choice. */
export class RegistryClient {
  private readonly tokens: TokenCache;
  private readonly agents = new Map<string, http.Agent>();
  /** Last challenge seen per endpoint, so later requests authenticate up front. */
  private readonly challenges: Map<string, AuthChallenge[]>;
  /** Endpoints that answered only over plain http (insecure fallback), remembered per client. */
  private readonly downgraded: Set<string>;
  /** Mirrors that failed to connect: skipped for the rest of this client's life (one pull). */
  private readonly deadMirrors: Set<string>;

  constructor(private readonly opts: RegistryClientOptions = {}, shared?: SharedClientState) {
    this.tokens = shared?.tokens ?? new TokenCache();
    this.challenges = shared?.challenges ?? new Map();
    this.downgraded = shared?.downgraded ?? new Set();
    this.deadMirrors = shared?.deadMirrors ?? new Set();
  }

  /**
   * A client for work shared with other callers (a blob download several pulls wait for): the
   * same endpoints, credentials, tokens and findings, but its own signal and connections, so it
   * outlives this client's caller. Close it when that work ends.
   */
  withSignal(signal: AbortSignal): RegistryClient {
    return new RegistryClient({ ...this.opts, signal }, { tokens: this.tokens, challenges: this.challenges, downgraded: this.downgraded, deadMirrors: this.deadMirrors });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  endpoints(ref: ImageReference): RegistryEndpoint[] {
    return resolveEndpoints(ref.domain, this.opts);
  }

  /** Fetches the manifest (or index) that `ref` names, by tag or digest, verified. */
  async fetchManifest(ref: ImageReference, reference = ref.digest ?? ref.tag ?? 'latest'): Promise<FetchedManifest> {
    const byDigest = reference.includes(':');
    if (byDigest) checkDigest(reference, 'manifest digest'); // it becomes part of the URL
    const endpoints = this.endpoints(ref).filter((e) => e.capabilities.includes(byDigest ? 'pull' : 'resolve'));
    return this.tryEndpoints(endpoints, async (ep) => {
      const res = await this.request(ep, ref, 'GET', `/${ref.path}/manifests/${reference}`, { Accept: MANIFEST_ACCEPT });
      const body = await readLimited(res, MAX_MANIFEST_SIZE, `manifest ${reference} from ${res.usedUrl}`);
      const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      if (byDigest && digest !== reference) {
        throw new RegistryError(`manifest digest mismatch: asked for ${reference}, content hashes to ${digest}`);
      }
      const header = res.headers['docker-content-digest'];
      if (!byDigest && typeof header === 'string' && header.startsWith('sha256:') && header !== digest) {
        throw new RegistryError(`manifest digest mismatch: registry says ${header}, content hashes to ${digest}`);
      }
      const mediaType = (res.headers['content-type'] ?? '').split(';')[0]!.trim();
      return { digest, mediaType, body };
    });
  }

  /** Opens a blob download; the caller verifies the digest while writing it. */
  async fetchBlob(ref: ImageReference, digest: string): Promise<IncomingMessage & { usedUrl: string }> {
    checkDigest(digest, 'blob digest'); // it becomes part of the URL
    const endpoints = this.endpoints(ref).filter((e) => e.capabilities.includes('pull'));
    return this.tryEndpoints(endpoints, (ep) => this.request(ep, ref, 'GET', `/${ref.path}/blobs/${digest}`, {}));
  }

  /** Checks credentials against a registry (isula login): resolves when /v2/ accepts them. */
  async ping(ref: ImageReference): Promise<void> {
    const ep = this.endpoints(ref).filter((e) => !e.mirror)[0]!;
    const res = await this.request(ep, ref, 'GET', '/', {});
    res.resume();
  }

  private async tryEndpoints<T>(endpoints: RegistryEndpoint[], fn: (ep: RegistryEndpoint) => Promise<T>): Promise<T> {
    let lastError: unknown = new RegistryError('no registry endpoint with the needed capability');
    for (const ep of endpoints) {
      if (this.deadMirrors.has(ep.url)) continue;
      try {
        return await fn(ep);
      } catch (error) {
        // The caller has gone: its reason, not what the destroyed request said ("aborted").
        if (this.opts.signal?.aborted) throw this.opts.signal.reason;
        lastError = error;
        if (ep.mirror && !(error instanceof RegistryError)) this.deadMirrors.add(ep.url);
        // Auth failures and bad content on the upstream itself are final; a mirror's errors fall through.
        if (!ep.mirror) break;
      }
    }
    throw lastError;
  }

  /** An authenticated request with retries; resolves with a 2xx response (body unread). */
  private async request(
    ep: RegistryEndpoint, ref: ImageReference, method: string, path: string, headers: Record<string, string>,
  ): Promise<IncomingMessage & { usedUrl: string }> {
    // A mirror that cannot be reached is skipped at once rather than retried.
    const attempts = ep.mirror ? 1 : (this.opts.attempts ?? 4);
    let lastError: unknown;
    let authRetried = false;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(Math.min(200 * 2 ** (attempt - 1), 3000), undefined, { signal: this.opts.signal });
      try {
        const auth = await this.authorization(ep, ref);
        const res = await this.send(ep, method, `${ep.url}${path}`, { ...ep.headers, ...headers, ...(auth ? { Authorization: auth } : {}) });
        // Errors name the URL actually fetched: plain http after a fallback, the target of a redirect.
        const used = res.usedUrl;
        if (res.statusCode === 401 && !authRetried) {
          res.resume();
          const header = res.headers['www-authenticate'];
          const challenges = parseWwwAuthenticate(Array.isArray(header) ? header.join(', ') : (header ?? ''));
          if (challenges.length === 0) throw new RegistryError(`${used}: 401 Unauthorized without a challenge`, 401);
          this.challenges.set(ep.url, challenges);
          authRetried = true;
          attempt--;
          continue;
        }
        if (res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300) return res;
        const text = (await readLimited(res, 64 << 10, 'error answer').catch(() => Buffer.alloc(0))).toString('utf8');
        const detail = registryErrorText(text) || res.statusMessage || '';
        const status = res.statusCode ?? 0;
        const what = `${method} ${used}: ${status} ${detail}`.trim();
        if (status === 401 || status === 403) throw new RegistryError(`unauthorized: ${what} (check credentials or use login)`, status);
        if (status === 404) throw new RegistryError(`not found: ${what}`, 404);
        throw new RegistryError(what, status, RETRY_STATUS.has(status));
      } catch (error) {
        lastError = error;
        if (this.opts.signal?.aborted) throw this.opts.signal.reason;
        if (!isRetryable(error)) throw error;
      }
    }
    throw lastError;
  }

  /** The endpoint's URL as it is reached: http once an https attempt fell back to it. */
  private endpointUrl(ep: RegistryEndpoint): string {
    return this.downgraded.has(ep.url) ? ep.url.replace(/^https:/, 'http:') : ep.url;
  }

  /**
   * Sends one request, following redirects. An endpoint remembered as plain http is asked over
   * http first; when that fails (it has turned to TLS since), it is forgotten and asked anew.
   */
  private async send(ep: RegistryEndpoint, method: string, url: string, headers: Record<string, string>): Promise<IncomingMessage & { usedUrl: string }> {
    const known = this.opts.plainHttp;
    if (ep.httpFallback && known?.has(ep.url) && !this.downgraded.has(ep.url)) {
      this.downgraded.add(ep.url);
      try {
        const res = await this.sendFollowing(ep, method, url, headers);
        // A TLS server answers a plain request with 400.
        if (res.statusCode !== 400) return res;
        res.resume();
      } catch {
        // asked anew below
      }
      this.downgraded.delete(ep.url);
      known.delete(ep.url);
    }
    return this.sendFollowing(ep, method, url, headers);
  }

  /** Sends one request, following redirects (Authorization is dropped when the host changes). */
  private async sendFollowing(ep: RegistryEndpoint, method: string, url: string, headers: Record<string, string>): Promise<IncomingMessage & { usedUrl: string }> {
    let current = url.startsWith(ep.url) ? this.endpointUrl(ep) + url.slice(ep.url.length) : url;
    let hdrs = { 'User-Agent': this.opts.userAgent ?? 'isulats/0.1', ...headers };
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      const res = await this.sendOnce(ep, method, current, hdrs).catch(async (error) => {
        if (ep.httpFallback && hop === 0 && current.startsWith('https:') && isConnectError(error)) {
          current = current.replace(/^https:/, 'http:');
          const plain = await this.sendOnce(ep, method, current, hdrs);
          this.downgraded.add(ep.url);
          this.opts.plainHttp?.add(ep.url);
          return plain;
        }
        throw error;
      });
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        const next = new URL(res.headers.location, current);
        if (next.host !== new URL(current).host) {
          const { Authorization: _drop, ...rest } = hdrs as Record<string, string>;
          hdrs = rest as typeof hdrs;
        }
        current = next.toString();
        continue;
      }
      return Object.assign(res, { usedUrl: current });
    }
    throw new RegistryError(`too many redirects (more than ${MAX_REDIRECTS}) fetching ${url}, the last to ${current}`);
  }

  /**
   * One request. The pull's signal destroys it, its response included (the connection closes);
   * a peer silent for the progress timeout, before its headers or in the middle of its body,
   * fails it with an error that names the URL and the timeout.
   */
  private sendOnce(ep: RegistryEndpoint, method: string, url: string, headers: Record<string, string>): Promise<IncomingMessage> {
    const u = new URL(url);
    const secure = u.protocol === 'https:';
    const sameHost = url.startsWith(ep.url) || new URL(ep.url).host === u.host;
    const agent = this.agent(secure, sameHost ? ep : undefined);
    const lib = secure ? https : http;
    const timeoutMs = this.opts.progressTimeoutMs ?? pullProgressTimeoutMs();
    return new Promise((resolve, reject) => {
      let response: IncomingMessage | undefined;
      const req = lib.request(u, { method, headers, agent, signal: this.opts.signal }, (res) => {
        response = res;
        resolve(res);
      });
      req.setTimeout(timeoutMs, () => {
        const stalled = new IsulatsError('deadline-exceeded', `no data from ${url} for ${formatSeconds(timeoutMs)}`);
        if (response && !response.complete) response.destroy(stalled);
        else req.destroy(stalled);
      });
      req.on('error', reject);
      req.end();
    });
  }

  private agent(secure: boolean, ep: RegistryEndpoint | undefined): http.Agent {
    const key = `${secure}|${ep?.skipVerify ?? false}|${ep?.ca?.join('') ?? ''}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = secure
        ? new https.Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: !(ep?.skipVerify ?? false), ca: ep?.ca })
        : new http.Agent({ keepAlive: true, maxSockets: 16 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** The Authorization header for a request, fetching a bearer token when the endpoint asked for one. */
  private async authorization(ep: RegistryEndpoint, ref: ImageReference): Promise<string | undefined> {
    const challenges = this.challenges.get(ep.url);
    if (!challenges) return undefined;
    const creds = await this.opts.credentials?.(ref.domain);
    const bearer = challenges.find((c) => c.scheme === 'bearer');
    if (bearer) {
      if (creds?.registryToken) return `Bearer ${creds.registryToken}`;
      return `Bearer ${await this.token(bearer, ref, creds)}`;
    }
    const basic = challenges.find((c) => c.scheme === 'basic');
    if (basic) {
      if (!creds?.username) throw new RegistryError(`unauthorized: ${this.endpointUrl(ep)} requires a username and password (use login or --creds)`, 401);
      return `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}`;
    }
    throw new RegistryError(`unsupported auth scheme(s) from ${this.endpointUrl(ep)}: ${challenges.map((c) => c.scheme).join(', ')}`, 401);
  }

  private async token(challenge: AuthChallenge, ref: ImageReference, creds: RegistryCredentials | undefined): Promise<string> {
    const realm = challenge.params.realm;
    if (!realm) throw new RegistryError('bearer challenge without a realm', 401);
    const service = challenge.params.service ?? '';
    const scopes = new Set([`repository:${ref.path}:pull`]);
    if (challenge.params.scope) for (const s of challenge.params.scope.split(' ')) scopes.add(s);
    const scope = [...scopes].sort().join(' ');
    const identity = creds?.username ?? (creds?.identityToken ? 'identity-token' : '');
    const key = `${realm}|${service}|${scope}|${identity}`;
    const cached = this.tokens.get(key);
    if (cached) return cached;
    const u = new URL(realm);
    let res: IncomingMessage;
    if (creds?.identityToken) {
      // OAuth2 refresh-token grant, as docker does with identity tokens.
      const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: creds.identityToken, service, scope, client_id: 'isulats' });
      res = await postForm(u, form.toString());
    } else {
      if (service) u.searchParams.set('service', service);
      for (const s of scopes) u.searchParams.append('scope', s);
      const headers: Record<string, string> = {};
      if (creds?.username) headers.Authorization = `Basic ${Buffer.from(`${creds.username}:${creds.password ?? ''}`).toString('base64')}`;
      res = await this.sendOnce({ url: realm, capabilities: [], skipVerify: false, headers: {}, httpFallback: false, mirror: false }, 'GET', u.toString(), headers);
    }
    const body = (await readLimited(res, 1 << 20, `token answer from ${u.origin}`)).toString('utf8');
    if ((res.statusCode ?? 0) !== 200) {
      throw new RegistryError(`unauthorized: token server ${u.origin} answered ${res.statusCode}: ${body.slice(0, 200)}`, 401);
    }
    let parsed: { token?: string; access_token?: string; expires_in?: number };
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new RegistryError(`token server ${u.origin} returned invalid JSON`, 401);
    }
    const token = parsed.token ?? parsed.access_token;
    if (!token) throw new RegistryError(`token server ${u.origin} returned no token`, 401);
    this.tokens.set(key, token, parsed.expires_in);
    return token;
  }
}

function postForm(u: URL, body: string): Promise<IncomingMessage> {
  const lib = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request(u, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } }, resolve);
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout talking to ${u.host}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The whole body, refused (and its connection closed) once it passes `limit` bytes, or at once when it announces more. */
async function readLimited(res: IncomingMessage, limit: number, what: string): Promise<Buffer> {
  // Content the registry should not have sent, as a blob longer than its descriptor: InvalidArgument.
  const tooLarge = () => {
    res.destroy();
    return new IsulatsError('invalid-argument', `${what} is larger than the limit of ${limit} bytes`);
  };
  if (Number(res.headers['content-length']) > limit) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The message of a registry error body ({"errors":[{"code","message"}]}). */
function registryErrorText(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errors?: Array<{ code?: string; message?: string }> };
    return (parsed.errors ?? []).map((e) => [e.code, e.message].filter(Boolean).join(': ')).join('; ');
  } catch {
    return text.trim().slice(0, 200);
  }
}

function formatSeconds(ms: number): string {
  return `${ms / 1000}s`;
}

function isConnectError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return code === 'ECONNREFUSED' || code === 'EPROTO' || code.startsWith('ERR_SSL') || /wrong version number|packet length too long/i.test(String((error as Error).message));
}

export function isRetryable(error: unknown): boolean {
  if (error instanceof RegistryError) return error.retryable;
  const code = (error as NodeJS.ErrnoException).code;
  return code !== undefined && RETRY_CODES.has(code);
}
