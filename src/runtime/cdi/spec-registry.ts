// The CDI specs of the configured dirs, read again whenever a dir or file
// changed: device plugins and DRA drivers write specs while the node runs.
// Each lookup stats the dirs and their spec files (cheap); only a changed
// signature re-reads them. Later dirs win for the same device (/var/run/cdi
// over /etc/cdi); the same device in two files of one dir is a conflict and
// resolves to nothing, as in the reference cache.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadYaml } from '../../util/cjs.js';
import type { LoadedSpec, ResolvedCdiDevice } from './cdi-types.js';
import { validateSpec } from './spec-validate.js';

export const DEFAULT_CDI_SPEC_DIRS = ['/etc/cdi', '/var/run/cdi'];
/** A spec file larger than this is refused unread (real ones are a few KiB). */
export const MAX_CDI_SPEC_BYTES = 1024 * 1024;

export interface CdiSnapshot {
  dirs: string[];
  specs: LoadedSpec[];
  /** Fully qualified name → device. */
  devices: Map<string, ResolvedCdiDevice>;
  /** Spec file → why it was skipped (or which devices conflict). */
  errors: Map<string, string>;
}

interface FileStat {
  path: string;
  priority: number;
  sig: string;
}

const isSpecFile = (name: string) => name.endsWith('.json') || name.endsWith('.yaml');

async function listSpecFiles(dirs: string[]): Promise<{ files: FileStat[]; sig: string }> {
  const files: FileStat[] = [];
  const parts: string[] = [];
  for (const [priority, dir] of dirs.entries()) {
    const d = await stat(dir, { bigint: true }).catch(() => undefined);
    parts.push(`${dir}:${d ? d.mtimeNs : '-'}`);
    if (!d?.isDirectory()) continue;
    const names = (await readdir(dir).catch(() => [] as string[])).filter(isSpecFile).sort();
    for (const name of names) {
      const path = join(dir, name);
      const s = await stat(path, { bigint: true }).catch(() => undefined);
      if (!s?.isFile()) continue;
      const sig = `${path}:${s.ino}:${s.size}:${s.mtimeNs}`;
      parts.push(sig);
      files.push({ path, priority, sig });
    }
  }
  return { files, sig: parts.join('\n') };
}

async function loadSpec(path: string): Promise<unknown> {
  const st = await stat(path);
  if (st.size > MAX_CDI_SPEC_BYTES) throw new Error(`larger than ${MAX_CDI_SPEC_BYTES} bytes`);
  const text = await readFile(path, 'utf8');
  if (path.endsWith('.json')) return JSON.parse(text);
  // YAML 1.2 is a superset of JSON: the reference decodes both through its YAML decoder.
  const yaml = await loadYaml();
  return yaml.parse(text, { uniqueKeys: true });
}

const errorLine = (err: unknown) => ((err as Error).message ?? String(err)).split('\n')[0]!;

export class CdiRegistry {
  private sig: string | undefined;
  private snap: CdiSnapshot;
  private loading: Promise<CdiSnapshot> | undefined;

  constructor(readonly dirs: string[] = DEFAULT_CDI_SPEC_DIRS) {
    this.snap = { dirs, specs: [], devices: new Map(), errors: new Map() };
  }

  /** The specs as they are on disk now (re-read only when something changed). */
  async snapshot(): Promise<CdiSnapshot> {
    // Concurrent creates share one scan.
    this.loading ??= this.refresh().finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async refresh(): Promise<CdiSnapshot> {
    const { files, sig } = await listSpecFiles(this.dirs);
    if (sig === this.sig) return this.snap;
    const specs: LoadedSpec[] = [];
    const errors = new Map<string, string>();
    for (const f of files) {
      try {
        specs.push({ path: f.path, priority: f.priority, spec: validateSpec(await loadSpec(f.path)) });
      } catch (err) {
        errors.set(f.path, errorLine(err));
      }
    }
    const devices = new Map<string, ResolvedCdiDevice>();
    const conflicts = new Set<string>();
    for (const s of specs) {
      for (const device of s.spec.devices) {
        const name = `${s.spec.kind}=${device.name}`;
        const other = devices.get(name);
        if (other && other.from.priority === s.priority) {
          conflicts.add(name);
          for (const p of [s.path, other.from.path]) errors.set(p, `conflicting device "${name}" (specs ${other.from.path}, ${s.path})`);
          continue;
        }
        devices.set(name, { name, device, from: s });
      }
    }
    for (const c of conflicts) devices.delete(c);
    this.snap = { dirs: this.dirs, specs, devices, errors };
    this.sig = sig;
    return this.snap;
  }
}
