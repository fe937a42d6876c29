import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { writeHtpasswd } from './htpasswd.js';
import { writeOwner } from './owner.js';
import { commandLineMentions, pidAlive, stopPid } from './proc.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';
import { makeTokenSigningCert, type TokenSigningCert } from './token-cert.js';
import { GiveUp, waitFor } from './wait.js';

const REGISTRY_BIN = '/usr/bin/docker-registry';

export interface TokenAuthOptions {
  /** URL of the token endpoint (the token server is not part of this module). */
  realm: string;
  service?: string;
  issuer?: string;
}

export interface RegistryOptions {
  /** Basic auth: user name -> password, stored as a bcrypt htpasswd file. */
  htpasswd?: Record<string, string>;
  /** Bearer token auth with a freshly generated signing certificate. */
  token?: TokenAuthOptions;
}

export interface Registry {
  /** `127.0.0.1:PORT`, the registry part of image references. */
  host: string;
  url: string;
  dir: string;
  pid: number;
  logPath: string;
  /** Present with token auth: what the token server needs to sign tokens this registry accepts. */
  token?: TokenSigningCert & Required<TokenAuthOptions>;
  stop(): Promise<void>;
}

/** Starts Debian's docker-registry on 127.0.0.1:<free port> with filesystem storage in a temp dir. */
export async function startRegistry(opts: RegistryOptions = {}): Promise<Registry> {
  const dir = await makeTempDir('ist-reg-');
  try {
    return await launch(dir, opts);
  } catch (error) {
    await removeTempDir(dir);
    throw error;
  }
}

export interface RegistryOwnerData {
  registryPid: number;
}

/** Stops the registry process (checked to be ours by its command line) and removes its dir. */
export async function stopRegistryDir(dir: string, pid: number | undefined): Promise<void> {
  if (pid !== undefined && (await commandLineMentions(pid, dir))) await stopPid(pid, 5_000);
  await removeTempDir(dir);
}

async function launch(dir: string, opts: RegistryOptions): Promise<Registry> {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const storage = join(dir, 'storage');
  await mkdir(storage);
  const config: Record<string, unknown> = {
    version: '0.1',
    log: { level: 'info', accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: storage }, delete: { enabled: true } },
    http: { addr: host, secret: 'isulats-test-secret' },
    health: { storagedriver: { enabled: false } },
  };
  let token: Registry['token'];
  if (opts.htpasswd) {
    const path = join(dir, 'htpasswd');
    await writeHtpasswd(path, opts.htpasswd);
    config.auth = { htpasswd: { realm: 'isulats-test', path } };
  } else if (opts.token) {
    const cert = await makeTokenSigningCert(dir);
    const settings = {
      realm: opts.token.realm,
      service: opts.token.service ?? host,
      issuer: opts.token.issuer ?? 'isulats-test-issuer',
    };
    token = { ...cert, ...settings };
    config.auth = { token: { ...settings, rootcertbundle: cert.certPath } };
  }
  const configPath = join(dir, 'config.yml');
  // JSON is valid YAML, and the registry reads YAML.
  await writeFile(configPath, JSON.stringify(config, null, 2));

  const logPath = join(dir, 'registry.log');
  const logFd = openSync(logPath, 'a');
  const child = spawn(REGISTRY_BIN, ['serve', configPath], { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error('docker-registry did not start');
  child.unref();
  await writeOwner<RegistryOwnerData>(dir, { registryPid: pid });
  const stop = (): Promise<void> => stopRegistryDir(dir, pid);
  try {
    await waitFor(async () => {
      if (!(await pidAlive(pid))) throw new GiveUp(`docker-registry exited; see ${logPath}`);
      const res = await fetch(`http://${host}/v2/`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return res.status === 200 || res.status === 401;
    }, { timeoutMs: 20_000, what: `docker-registry on ${host}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, url: `http://${host}`, dir, pid, logPath, token, stop };
}
