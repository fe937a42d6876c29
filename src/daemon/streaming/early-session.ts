// A TTY exec session started before its client's streams are open: the runtime gets a StreamIO
// whose `opened` is pending, so its monitor (conmon) boots while the client is still on its way
// (from the Exec answer, through the HTTP upgrade, to the last of its streams). The command runs
// only once the transport hands over the streams; a session never opened is abandoned and runs
// nothing.
import type { StreamIO } from '../../client/backend.js';
import type { K8sStatus } from '../../protocols/remotecommand/index.js';

export type SessionStreams = Pick<StreamIO, 'stdin' | 'stdout' | 'stderr' | 'resize' | 'gone'>;

export class EarlySession {
  readonly io: StreamIO;
  /** The session's outcome; a session abandoned before it opened ends with a failure nobody reads. */
  readonly status: Promise<K8sStatus>;
  private resolveOpened!: () => void;
  private rejectOpened!: (error: Error) => void;
  private state: 'pending' | 'opened' | 'abandoned' = 'pending';

  constructor(tty: boolean, run: (io: StreamIO) => Promise<K8sStatus>) {
    const opened = new Promise<void>((resolve, reject) => {
      this.resolveOpened = resolve;
      this.rejectOpened = reject;
    });
    opened.catch(() => undefined);
    this.io = { tty, opened };
    this.status = run(this.io);
  }

  get pending(): boolean {
    return this.state === 'pending';
  }

  get abandoned(): boolean {
    return this.state === 'abandoned';
  }

  /** The client's streams are open: the session goes on with them (once; later calls get the same outcome). */
  open(streams: SessionStreams): Promise<K8sStatus> {
    if (this.state === 'pending') {
      this.state = 'opened';
      Object.assign(this.io, streams);
      this.resolveOpened();
    }
    return this.status;
  }

  /** The streams never will be open (client gone, URL unused or refused): nothing runs. No-op once opened. */
  abandon(why: string): void {
    if (this.state !== 'pending') return;
    this.state = 'abandoned';
    this.rejectOpened(new Error(why));
  }
}
