// CNI: discovers the network config, runs plugin chains with the CNI
// environment/stdin protocol, and caches each ADD result on disk so DEL and
// CHECK work from another process or after a restart.
// The cache is written atomically but without fsyncs, as libcni writes it (containerd, CRI-O):
// after a power loss the pod's network is gone with the boot, and a DEL that finds no readable
// cache runs with the current config, as for a pod whose cache never was written (host-local
// releases its lease by container ID). Plugin look-ups and the cache's directory are calls on the
// calling thread: with many pods starting, libuv's pool is queued with their records' fsyncs.
import { accessSync, constants, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { readJson, writeJsonAtomic } from '../store/atomic-file.js';
import { internal, unavailable } from '../errors.js';
import type { ProcessRunner } from '../oci/process-runner.js';
import { describeCniError, pluginStdin, toConfList, type CniConfList, type CniResult } from './cni-result.js';

export const DEFAULT_CNI_CONF_DIR = '/etc/cni/net.d';
export const DEFAULT_CNI_BIN_DIRS = ['/opt/cni/bin', '/usr/lib/cni'];

export interface CniAttachment {
  containerId: string;
  netnsPath: string;
  ifName: string;
  /** CNI_ARGS pairs, e.g. K8S_POD_NAMESPACE. */
  args: Record<string, string>;
  /** Capability arguments (portMappings, ...). */
  runtimeConfig: Record<string, unknown>;
}

interface CacheEntry {
  config: CniConfList;
  attachment: CniAttachment;
  result: CniResult;
}

export interface CniOptions {
  runner: ProcessRunner;
  confDir?: string;
  binDirs?: string[];
  /** Persistent cache dir (results of ADD). */
  cacheDir: string;
  timeoutMs?: number;
}

export class CniManager {
  readonly confDir: string;
  readonly binDirs: string[];

  constructor(private readonly opts: CniOptions) {
    this.confDir = opts.confDir ?? DEFAULT_CNI_CONF_DIR;
    this.binDirs = opts.binDirs ?? DEFAULT_CNI_BIN_DIRS;
  }

  /** The first valid config in lexical order (as kubelet and containerd pick it); undefined with the reason when none. */
  async loadConfig(): Promise<{ config?: CniConfList; reason?: string }> {
    // Read synchronously: Status (kubelet asks every few seconds) reads this each time, and each
    // thread-pool round trip of an async read costs more than the read of a small local file.
    let names: string[];
    try {
      names = readdirSync(this.confDir).filter((n) => /\.(conflist|conf|json)$/.test(n)).sort();
    } catch {
      return { reason: `no network config found in ${this.confDir}` };
    }
    if (names.length === 0) return { reason: `no network config found in ${this.confDir}` };
    const problems: string[] = [];
    for (const name of names) {
      try {
        return { config: toConfList(JSON.parse(readFileSync(join(this.confDir, name), 'utf8')), name) };
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
    return { reason: `no valid network config found in ${this.confDir}${problems.length ? ` (${problems.join('; ')})` : ''}` };
  }

  private pluginPath(type: string): string {
    for (const dir of this.binDirs) {
      const candidate = join(dir, type);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not in this dir
      }
    }
    throw unavailable(`CNI plugin "${type}" not found in ${this.binDirs.join(', ')}`);
  }

  private cacheFile(network: string, containerId: string, ifName: string): string {
    return join(this.opts.cacheDir, `${network}-${containerId}-${ifName}.json`);
  }

  private async exec(command: 'ADD' | 'DEL' | 'CHECK', list: CniConfList, index: number, att: CniAttachment, prev?: CniResult): Promise<CniResult | undefined> {
    const plugin = list.plugins[index]!;
    const path = this.pluginPath(plugin.type);
    const cniArgs = Object.entries({ IgnoreUnknown: '1', ...att.args }).map(([k, v]) => `${k}=${v}`).join(';');
    // Over this process's environment, which the runner's addon reads without JavaScript (spreading
    // process.env reads every variable through V8's interceptor).
    const extraEnv = {
      CNI_COMMAND: command,
      CNI_CONTAINERID: att.containerId,
      CNI_NETNS: att.netnsPath,
      CNI_IFNAME: att.ifName,
      CNI_ARGS: cniArgs,
      CNI_PATH: this.binDirs.join(':'),
    };
    const result = await this.opts.runner.run({
      cmd: path,
      args: [],
      extraEnv,
      input: JSON.stringify(pluginStdin(list, plugin, att.runtimeConfig, prev)),
      timeoutMs: this.opts.timeoutMs ?? 60_000,
    });
    if (result.code !== 0 || result.timedOut) {
      throw internal(`CNI ${command} of network "${list.name}" failed in plugin ${plugin.type}: ${describeCniError(result.stdout.toString(), result.stderr.toString())}`);
    }
    if (command !== 'ADD') return undefined;
    return JSON.parse(result.stdout.toString() || '{}') as CniResult;
  }

  /** Runs ADD through the chain and caches the result. On failure, DEL runs for the whole chain before the error is thrown. */
  async add(att: CniAttachment): Promise<CniResult> {
    const { config, reason } = await this.loadConfig();
    if (!config) throw unavailable(`network not ready: ${reason}`);
    let prev: CniResult | undefined;
    try {
      for (let i = 0; i < config.plugins.length; i++) prev = await this.exec('ADD', config, i, att, prev);
    } catch (error) {
      await this.delChain(config, att, prev).catch(() => undefined);
      throw error;
    }
    mkdirSync(this.opts.cacheDir, { recursive: true, mode: 0o700 });
    const entry: CacheEntry = { config, attachment: att, result: prev ?? {} };
    await writeJsonAtomic(this.cacheFile(config.name, att.containerId, att.ifName), entry, 0o600, { durable: false });
    return prev ?? {};
  }

  async cached(containerId: string, ifName = 'eth0'): Promise<CacheEntry | undefined> {
    return (await this.cacheLookup(containerId, ifName)).entry;
  }

  /** The attachment's cache file, if any, and its entry when it is readable. */
  private async cacheLookup(containerId: string, ifName: string): Promise<{ file?: string; entry?: CacheEntry }> {
    const names = await readdir(this.opts.cacheDir).catch(() => [] as string[]);
    const name = names.find((n) => n.endsWith(`-${containerId}-${ifName}.json`));
    if (!name) return {};
    const file = join(this.opts.cacheDir, name);
    return { file, entry: await readJson<CacheEntry>(file).catch(() => undefined) };
  }

  async check(containerId: string, ifName = 'eth0'): Promise<void> {
    const entry = await this.cached(containerId, ifName);
    if (!entry) throw unavailable(`no network attachment recorded for ${containerId}`);
    if (entry.config.disableCheck) return;
    for (let i = 0; i < entry.config.plugins.length; i++) await this.exec('CHECK', entry.config, i, entry.attachment, entry.result);
  }

  /**
   * DEL with the cached config and result (so it works after the config
   * changed or the engine restarted); falls back to the current config. Idempotent.
   */
  async del(containerId: string, netnsPath: string, args: Record<string, string>, ifName = 'eth0'): Promise<void> {
    const { file, entry } = await this.cacheLookup(containerId, ifName);
    if (entry) {
      await this.delChain(entry.config, { ...entry.attachment, netnsPath }, entry.result);
      await rm(this.cacheFile(entry.config.name, containerId, ifName), { force: true });
      return;
    }
    const { config } = await this.loadConfig();
    if (config) await this.delChain(config, { containerId, netnsPath, ifName, args, runtimeConfig: {} }, undefined);
    // An unreadable cache (empty after a power loss) served nothing: it goes once DEL succeeded.
    if (file) await rm(file, { force: true });
  }

  private async delChain(list: CniConfList, att: CniAttachment, prev: CniResult | undefined): Promise<void> {
    let firstError: unknown;
    for (let i = list.plugins.length - 1; i >= 0; i--) {
      try {
        await this.exec('DEL', list, i, att, prev);
      } catch (error) {
        firstError ??= error;
      }
    }
    if (firstError) throw firstError;
  }
}
