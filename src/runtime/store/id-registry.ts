// Name reservation: one file per name under <root>/names/<kind>/, published
// with link(2) from a temp file that already holds the owner's ID: link fails
// when the name exists, so two processes can never both own a name, and a
// reservation is never seen empty (a process killed between an O_EXCL create
// and its write left one that named no owner). Release only removes a
// reservation it owns.
import { randomBytes, createHash } from 'node:crypto';
import { linkSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { alreadyExists } from '../errors.js';
import { joinPath } from './path-join.js';

export function newId(): string {
  return randomBytes(32).toString('hex');
}

export class NameRegistry {
  private readonly dir: string;

  constructor(root: string, kind: 'sandboxes' | 'containers') {
    this.dir = joinPath(root, 'names', kind);
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
  }

  private file(name: string): string {
    const encoded = encodeURIComponent(name);
    return joinPath(this.dir, encoded.length > 200 ? createHash('sha256').update(name).digest('hex') : encoded);
  }

  async reserve(name: string, id: string): Promise<void> {
    const file = this.file(name);
    // The temp name is that of an atomic write (atomic-file.ts): recovery sweeps those of dead writers.
    const tmp = joinPath(this.dir, `.${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    // Three small metadata calls, on the calling thread (cheaper than thread-pool round trips).
    writeFileSync(tmp, id, { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = await this.owner(name);
      if (owner === id) return;
      throw alreadyExists(`name "${name}" is reserved for ${owner ?? 'another object'}`);
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  async owner(name: string): Promise<string | undefined> {
    // A 64-byte file: read synchronously (cheaper than a thread-pool round trip).
    try {
      return readFileSync(this.file(name), 'utf8').trim();
    } catch {
      return undefined;
    }
  }

  async release(name: string, id: string): Promise<void> {
    if ((await this.owner(name)) !== id) return;
    try {
      unlinkSync(this.file(name));
    } catch {
      // already gone
    }
  }

  /** Drops reservations older than minAgeMs whose owner has no record (left by a killed process). */
  async reclaim(exists: (id: string) => Promise<boolean>, minAgeMs = 5 * 60_000): Promise<number> {
    let dropped = 0;
    for (const entry of await readdir(this.dir).catch(() => [] as string[])) {
      const path = joinPath(this.dir, entry);
      const [id, info] = await Promise.all([readFile(path, 'utf8').catch(() => ''), stat(path).catch(() => undefined)]);
      if (!info || Date.now() - info.mtimeMs < minAgeMs) continue;
      if (!(await exists(id.trim()))) {
        await rm(path, { force: true });
        dropped++;
      }
    }
    return dropped;
  }
}
