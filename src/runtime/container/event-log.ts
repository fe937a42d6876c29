// Container lifecycle events as JSON lines in one file under the state dir:
// every process appends (O_APPEND writes of one line are atomic), and
// GetContainerEvents tails the file, so an embedded CLI sees events made by
// other CLI processes. Past a size the file is rotated to `<file>.1` (one
// generation kept), so a long-lived node's state dir does not grow without
// bound; a reader that sees the rotation first finishes the old generation.
import { appendFileSync, statSync } from 'node:fs';
import { open, rename, stat } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type * as cri from '../../api/cri.js';

export type ContainerEventKind = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

export interface ContainerEvent {
  containerId: string;
  podSandboxId: string;
  type: ContainerEventKind;
  createdAt: string;
  /** The container's status as the event left it (none for DELETED): a reader may come too late to read it. */
  status?: cri.ContainerStatus;
}

/** Rotation size: thousands of lifecycles, while a reader polling every 200 ms never falls a generation behind. */
export const EVENT_LOG_MAX_BYTES = 8 * 1024 * 1024;

export class EventLog {
  constructor(
    private readonly file: string,
    private readonly maxBytes = EVENT_LOG_MAX_BYTES,
  ) {}

  async append(event: ContainerEvent): Promise<void> {
    // One small O_APPEND write (and a stat): synchronous, cheaper than thread-pool round trips.
    let size = 0;
    try {
      appendFileSync(this.file, `${JSON.stringify(event)}\n`, { mode: 0o600 });
      size = statSync(this.file).size;
    } catch {
      // the event log is best effort
    }
    // Two writers may both rotate: the second renames a nearly empty file, losing at most the
    // lines a reader had not yet seen of the first generation's last moments.
    if (size > this.maxBytes) await rename(this.file, `${this.file}.1`).catch(() => undefined);
  }

  /** Events appended after the call, until `signal` aborts. Polls (no inotify across processes needed). */
  async *tail(signal: AbortSignal, intervalMs = 200): AsyncIterable<ContainerEvent> {
    let current = await stat(this.file).then((s) => ({ ino: s.ino, offset: s.size }), () => ({ ino: 0, offset: 0 }));
    let partial = '';
    while (!signal.aborted) {
      const now = await stat(this.file).then((s) => ({ ino: s.ino, size: s.size }), () => ({ ino: 0, size: 0 }));
      let chunk = '';
      if (current.ino !== 0 && now.ino !== current.ino) {
        // Rotated since the last poll: the rest of the old generation first, then the new file.
        chunk += (await readFrom(`${this.file}.1`, current.offset, current.ino)).text;
        current = { ino: now.ino, offset: 0 };
      } else if (current.ino === 0) {
        current.ino = now.ino;
      }
      if (now.size < current.offset) current.offset = 0;
      if (now.size > current.offset) {
        // Only what was read counts as read: rotated away between the stat and the open, the
        // bytes are read from `.1` at the next poll.
        const read = await readFrom(this.file, current.offset, current.ino);
        chunk += read.text;
        current.offset = read.end;
      }
      if (chunk) {
        partial += chunk;
        const lines = partial.split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (!line) continue;
          try {
            yield JSON.parse(line) as ContainerEvent;
          } catch {
            // a torn line from a crashed writer: skip it
          }
        }
      }
      await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}

/**
 * The file's bytes from `offset` to its end, and the offset reached ('' and `offset` when absent,
 * or when it is not the inode expected).
 */
async function readFrom(path: string, offset: number, ino: number): Promise<{ text: string; end: number }> {
  const nothing = { text: '', end: offset };
  const handle = await open(path, 'r').catch(() => undefined);
  if (!handle) return nothing;
  try {
    const st = await handle.stat();
    if (st.ino !== ino || st.size <= offset) return nothing;
    const buf = Buffer.alloc(st.size - offset);
    const { bytesRead } = await handle.read(buf, 0, buf.length, offset);
    return { text: buf.subarray(0, bytesRead).toString(), end: offset + bytesRead };
  } finally {
    await handle.close();
  }
}
