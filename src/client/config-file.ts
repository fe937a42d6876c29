// The client config file: isulats.yaml, which may be a crictl.yaml as is.
// Keys are crictl's; unknown keys are refused so typos do not go unnoticed.
import { readFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileSync, renameSync } from 'node:fs';
import { loadYaml } from '../util/cjs.js';

export const DEFAULT_CONFIG_PATH = '/etc/isulats/isulats.yaml';

export interface ClientConfig {
  'runtime-endpoint'?: string;
  'image-endpoint'?: string;
  /** Seconds, as crictl stores it. */
  timeout?: number;
  debug?: boolean;
  'pull-image-on-create'?: boolean;
  'disable-pull-on-run'?: boolean;
  /** The image `debug` starts when --image is not given. */
  'debug-image'?: string;
}

export const CONFIG_KEYS: Record<keyof ClientConfig, 'string' | 'number' | 'boolean'> = {
  'runtime-endpoint': 'string',
  'image-endpoint': 'string',
  timeout: 'number',
  debug: 'boolean',
  'pull-image-on-create': 'boolean',
  'disable-pull-on-run': 'boolean',
  'debug-image': 'string',
};

export function configPath(flag?: string): { path: string; explicit: boolean } {
  if (flag) return { path: flag, explicit: true };
  if (process.env.CRI_CONFIG_FILE) return { path: process.env.CRI_CONFIG_FILE, explicit: true };
  return { path: DEFAULT_CONFIG_PATH, explicit: false };
}

/** Reads the config file; a missing default file is an empty config, a missing explicit one an error. */
export async function readClientConfig(path: string, explicit: boolean): Promise<ClientConfig> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !explicit) return {};
    throw new Error(`reading config file ${path}: ${(err as Error).message}`);
  }
  const { parse } = await loadYaml();
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new Error(`config file ${path} is not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc == null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`config file ${path} must be a mapping of keys to values`);
  const out: ClientConfig = {};
  for (const [k, v] of Object.entries(doc as Record<string, unknown>)) {
    const type = CONFIG_KEYS[k as keyof ClientConfig];
    if (!type) throw new Error(`config file ${path}: unknown key "${k}" (known: ${Object.keys(CONFIG_KEYS).join(', ')})`);
    (out as Record<string, unknown>)[k] = coerce(k, v, type, path);
  }
  return out;
}

function coerce(key: string, v: unknown, type: string, path: string): unknown {
  if (type === 'string' && typeof v === 'string') return v;
  if (type === 'number' && typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (type === 'boolean' && typeof v === 'boolean') return v;
  throw new Error(`config file ${path}: key "${key}" must be a ${type}, got ${JSON.stringify(v)}`);
}

/** Parses a value given on the command line for `config set`. */
export function parseConfigValue(key: string, value: string): unknown {
  const type = CONFIG_KEYS[key as keyof ClientConfig];
  if (!type) throw new Error(`unknown config key "${key}" (known: ${Object.keys(CONFIG_KEYS).join(', ')})`);
  if (type === 'string') return value;
  if (type === 'boolean') {
    if (value === 'true') return true;
    if (value === 'false') return false;
    throw new Error(`config key "${key}" takes true or false, got "${value}"`);
  }
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isFinite(n)) throw new Error(`config key "${key}" takes a whole number of seconds, got "${value}"`);
  return n;
}

export async function writeClientConfig(path: string, config: ClientConfig): Promise<void> {
  const { stringify } = await loadYaml();
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, stringify(config), { mode: 0o644 });
  renameSync(tmp, path);
}
