// What the checks read from the host, behind one interface so that unit tests
// hand in fixtures (cgroup v2, a missing sysctl) and integration tests the host.
import { execFile } from 'node:child_process';
import { readdir, readFile, realpath, statfs } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { access, constants } from 'node:fs/promises';

export interface FsUsage {
  totalBytes: number;
  freeBytes: number;
  totalInodes: number;
  freeInodes: number;
}

export interface HostProbe {
  /** File contents, or undefined when it does not exist or cannot be read. */
  readText(path: string): Promise<string | undefined>;
  /** Entry names, or undefined when the directory does not exist. */
  list(dir: string): Promise<string[] | undefined>;
  statfs(path: string): Promise<FsUsage>;
  /** Absolute path of an executable on PATH (plus `extraDirs`), or undefined. */
  which(name: string, extraDirs?: string[]): Promise<string | undefined>;
  /** First line of `bin --version` (or `version`), or undefined when it fails. */
  versionOf(bin: string): Promise<string | undefined>;
  isExecutable(path: string): Promise<boolean>;
  /** The path with every link resolved, or undefined when it does not exist. */
  realpath(path: string): Promise<string | undefined>;
  /** Command lines of all processes, by PID. */
  processes(): Promise<Array<{ pid: number; argv: string[] }>>;
  now(): Date;
}

export const hostProbe: HostProbe = {
  readText: (path) => readFile(path, 'utf8').catch(() => undefined),
  list: (dir) => readdir(dir).catch(() => undefined),
  async statfs(path) {
    const s = await statfs(path);
    return { totalBytes: s.blocks * s.bsize, freeBytes: s.bavail * s.bsize, totalInodes: s.files, freeInodes: s.ffree };
  },
  async which(name, extraDirs = []) {
    for (const dir of [...(process.env.PATH ?? '').split(delimiter), ...extraDirs, '/usr/sbin', '/sbin', '/usr/libexec/podman', '/usr/local/bin']) {
      if (!dir) continue;
      const p = join(dir, name);
      if (await hostProbe.isExecutable(p)) return p;
    }
    return undefined;
  },
  versionOf: (bin) => new Promise((resolve) => {
    execFile(bin, ['--version'], { timeout: 5000 }, (err, stdout) => {
      const line = String(stdout).split('\n').find((l) => l.trim());
      resolve(err || !line ? undefined : line.trim());
    });
  }),
  isExecutable: (path) => access(path, constants.X_OK).then(() => true, () => false),
  realpath: (path) => realpath(path).catch(() => undefined),
  async processes() {
    const out: Array<{ pid: number; argv: string[] }> = [];
    for (const name of (await readdir('/proc').catch(() => [])) as string[]) {
      if (!/^\d+$/.test(name)) continue;
      const raw = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
      if (raw) out.push({ pid: Number(name), argv: raw.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1) });
    }
    return out;
  },
  now: () => new Date(),
};

