// A full disk (ENOSPC), a full quota (EDQUOT) or a file system remounted read-only (EROFS) refuses
// writes that would otherwise succeed. Reads and teardown must not fail for that: a record whose
// write is refused keeps its old content on disk (writes are atomic: temp file, then rename), the
// answer is derived from what was observed, and the write is made again by the next call that
// observes the same thing (see docs/architecture.md, "Full disk").

const REFUSED = new Set(['ENOSPC', 'EDQUOT', 'EROFS']);

/** True when `error` is a file system's refusal to store more (not a bug or a missing file). */
export function isWriteRefused(error: unknown): boolean {
  return REFUSED.has((error as NodeJS.ErrnoException | undefined)?.code ?? '');
}

/**
 * Runs `write`; true once it succeeded. A refused write (isWriteRefused) gives false and calls
 * `refused` with the error; anything else is thrown.
 */
export async function writeUnlessRefused(write: () => Promise<void>, refused: (error: Error) => void): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (!isWriteRefused(error)) throw error;
    refused(error as Error);
    return false;
  }
}

/**
 * One warning per object while its writes are refused, and one more once a write of it succeeds
 * again: a full disk must not also fill the log with a line per read of each object.
 */
export class RefusedWrites {
  private readonly pending = new Set<string>();

  constructor(private readonly warn: (message: string) => void) {}

  /** A write of `id` was refused: warned the first time only. */
  refused(id: string, what: string, error: Error): void {
    if (this.pending.has(id)) return;
    this.pending.add(id);
    this.warn(`${what}: not written (${(error as NodeJS.ErrnoException).code ?? error.message}); answered from what was observed, written at a later call`);
  }

  /** A write of `id` succeeded (or the object is gone): a refusal before it is reported over. */
  written(id: string, what: string): void {
    if (this.pending.delete(id)) this.warn(`${what}: written now`);
  }

  forget(id: string): void {
    this.pending.delete(id);
  }

  /** Objects whose last write was refused. */
  get size(): number {
    return this.pending.size;
  }
}
