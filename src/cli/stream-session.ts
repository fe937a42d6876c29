// The client side of exec (streaming) and attach: in-process for the embedded
// engine (backend.streamInProcess), otherwise the CRI's streaming URL through
// the WebSocket/SPDY client. Resolves with the remote process's exit code.
import type { CriBackend } from '../client/backend.js';
import type * as cri from '../api/cri.js';
import { invalidArgument } from '../runtime/errors.js';
import { ExitCodeError } from './errors.js';

// crictl sends a URL without host to the kubelet's default address.
const KUBELET_URL = 'http://127.0.0.1:10250';

export function absoluteStreamUrl(url: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  return `${KUBELET_URL}${url.startsWith('/') ? '' : '/'}${url}`;
}

export interface SessionIO {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  debug(msg: string): void;
}

export async function runStreamSession(
  backend: CriBackend,
  kind: 'exec' | 'attach',
  req: cri.ExecRequestIn & cri.AttachRequestIn,
  io: SessionIO,
): Promise<number> {
  const tty = Boolean(req.tty);
  const interactive = Boolean(req.stdin);
  // crictl's rules for a TTY session, checked before anything is started.
  if (tty && !interactive) throw invalidArgument('tty=true must be specified with interactive=true');
  if (tty && !io.stdin.isTTY) throw invalidArgument('input is not a terminal');
  const { setupTerminal } = await import('../client/streaming/terminal.js');
  const term = setupTerminal({ tty, stdin: io.stdin, stdout: io.stdout });
  try {
    const stdin = interactive ? io.stdin : undefined;
    let run: Promise<number>;
    if (backend.streamInProcess) {
      run = backend.streamInProcess(kind, req, { stdin, stdout: io.stdout, stderr: io.stderr, tty, resize: term.resize });
    } else {
      const r = kind === 'exec' ? await backend.exec(req) : await backend.attach(req);
      const url = absoluteStreamUrl(r.url);
      io.debug(`${kind} URL: ${url}`);
      const { runRemoteCommand } = await import('../client/streaming/remote-command.js');
      // Piped stdin must reach the remote process as EOF: WebSocket before
      // v5.channel.k8s.io cannot say so, SPDY can (crictl always uses SPDY).
      const transport = interactive && !tty ? 'spdy' : 'auto';
      run = runRemoteCommand(url, { stdin, stdout: io.stdout, stderr: io.stderr, tty, resize: term.resize, transport }).then((x) => x.exitCode);
    }
    // Without a TTY, Ctrl-C ends the local client (the remote process is not signalled), as kubectl does.
    const interrupted = new Promise<number>((_, reject) => {
      term.interrupted.addEventListener('abort', () => reject(new ExitCodeError(130)), { once: true });
    });
    return await Promise.race([run, interrupted]);
  } finally {
    term.restore();
    if (interactive) io.stdin.pause();
  }
}
