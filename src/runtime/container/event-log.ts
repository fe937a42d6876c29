// Container lifecycle events as JSON lines in one file under the state dir:
// every process appends (O_APPEND writes of one line are atomic), and
// GetContainerEvents tails the file, so an embedded CLI sees events made by
// other CLI processes.
import { appendFile, open, stat } from 'node:fs/promises';
import type * as cri from '../../api/cri.js';
import { setTimeout as sleep } from 'node:timers/promises';

export type ContainerEventKind = 'CONTAINER_CREATED_EVENT' | 'CONTAINER_STARTED_EVENT' | 'CONTAINER_STOPPED_EVENT' | 'CONTAINER_DELETED_EVENT';

export interface ContainerEvent {
  containerId: string;
  podSandboxId: string;
  type: ContainerEventKind;
  createdAt: string;
  /** The container's status as the event left it (none for DELETED): a reader may come too late to read it. */
  status?: cri.ContainerStatus;
}

export class EventLog {
  constructor(private readonly file: string) {}

  async append(event: ContainerEvent): Promise<void> {
    await appendFile(this.file, `${JSON.stringify(event)}\n`, { mode: 0o600 }).catch(() => undefined);
  }

  /** Events appended after the call, until `signal` aborts. Polls (no inotify across processes needed). */
  async *tail(signal: AbortSignal, intervalMs = 200): AsyncIterable<ContainerEvent> {
    let offset = await stat(this.file).then((s) => s.size, () => 0);
    let partial = '';
    while (!signal.aborted) {
      const size = await stat(this.file).then((s) => s.size, () => 0);
      if (size < offset) offset = 0;
      if (size > offset) {
        const handle = await open(this.file, 'r');
        try {
          const buf = Buffer.alloc(size - offset);
          await handle.read(buf, 0, buf.length, offset);
          offset = size;
          partial += buf.toString();
        } finally {
          await handle.close();
        }
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
