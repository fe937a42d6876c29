import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';

// crictl reads these files with Go's JSON/YAML tags: snake_case keys, enums as numbers.
const NAMESPACE_MODES = { POD: 0, CONTAINER: 1, NODE: 2, TARGET: 3 } as const;
export type NamespaceModeName = keyof typeof NAMESPACE_MODES;

export type ConfigFormat = 'json' | 'yaml';

export interface PodConfigOptions {
  name: string;
  uid?: string;
  namespace?: string;
  attempt?: number;
  logDirectory?: string;
  hostname?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  namespaces?: { network?: NamespaceModeName; pid?: NamespaceModeName; ipc?: NamespaceModeName };
  /** Extra top-level fields, merged as given (snake_case). */
  extra?: Record<string, unknown>;
  format?: ConfigFormat;
}

export interface ContainerConfigOptions {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  logPath?: string;
  attempt?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  extra?: Record<string, unknown>;
  format?: ConfigFormat;
}

/** crictl-style pod sandbox config object. */
export function podConfig(opts: PodConfigOptions): Record<string, unknown> {
  const ns = opts.namespaces ?? {};
  const config: Record<string, unknown> = {
    metadata: {
      name: opts.name,
      uid: opts.uid ?? randomUUID(),
      namespace: opts.namespace ?? 'default',
      attempt: opts.attempt ?? 0,
    },
    linux: {
      security_context: {
        namespace_options: {
          network: NAMESPACE_MODES[ns.network ?? 'POD'],
          pid: NAMESPACE_MODES[ns.pid ?? 'CONTAINER'],
          ipc: NAMESPACE_MODES[ns.ipc ?? 'POD'],
        },
      },
    },
  };
  if (opts.logDirectory !== undefined) config.log_directory = opts.logDirectory;
  if (opts.hostname !== undefined) config.hostname = opts.hostname;
  if (opts.labels) config.labels = opts.labels;
  if (opts.annotations) config.annotations = opts.annotations;
  return { ...config, ...opts.extra };
}

/** crictl-style container config object. */
export function containerConfig(opts: ContainerConfigOptions): Record<string, unknown> {
  const config: Record<string, unknown> = {
    metadata: { name: opts.name, attempt: opts.attempt ?? 0 },
    image: { image: opts.image },
    linux: {},
  };
  if (opts.command) config.command = opts.command;
  if (opts.args) config.args = opts.args;
  if (opts.logPath !== undefined) config.log_path = opts.logPath;
  if (opts.labels) config.labels = opts.labels;
  if (opts.annotations) config.annotations = opts.annotations;
  return { ...config, ...opts.extra };
}

/** Writes a pod config file into `dir` and returns its path. */
export async function writePodConfig(dir: string, opts: PodConfigOptions): Promise<string> {
  return writeConfig(dir, `pod-${opts.name}`, podConfig(opts), opts.format);
}

/** Writes a container config file into `dir` and returns its path. */
export async function writeContainerConfig(dir: string, opts: ContainerConfigOptions): Promise<string> {
  return writeConfig(dir, `ctr-${opts.name}`, containerConfig(opts), opts.format);
}

async function writeConfig(dir: string, base: string, config: unknown, format: ConfigFormat = 'json'): Promise<string> {
  const path = join(dir, `${base}.${format === 'yaml' ? 'yaml' : 'json'}`);
  await writeFile(path, format === 'yaml' ? toYaml(config) : `${JSON.stringify(config, null, 2)}\n`);
  return path;
}
