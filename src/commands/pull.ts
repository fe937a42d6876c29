import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import type { AuthConfigIn, PodSandboxConfigIn } from '../api/cri.js';
import type { PullProgress } from '../client/backend.js';
import { humanSize } from '../cli/output/units.js';

export default defineCommand({
  summary: 'Pull an image from a registry',
  usage: 'pull NAME[:TAG|@DIGEST]',
  flags: {
    creds: Flags.string({ summary: 'Use `USERNAME[:PASSWORD]` for accessing the registry', env: 'CRICTL_CREDS' }),
    auth: Flags.string({ summary: "Use `AUTH_STRING` for accessing the registry. AUTH_STRING is a base64 encoded 'USERNAME[:PASSWORD]'", env: 'CRICTL_AUTH' }),
    username: Flags.string({ char: 'u', summary: 'Use `USERNAME` for accessing the registry. The password will be requested on the command line' }),
    quiet: Flags.boolean({ char: 'q', summary: 'Show no per-layer progress (embedded engine)' }),
    'pod-config': Flags.string({ summary: 'Use `pod-config.[json|yaml]` to override the pull context' }),
  },
  args: {
    image: Args.string({ description: 'NAME[:TAG|@DIGEST]', required: false }),
  },
  async run(ctx) {
    const image: string | undefined = ctx.args.image;
    if (!image) throw new Error('Image name cannot be empty');
    const auth = await getAuth(ctx.flags.creds, ctx.flags.auth, ctx.flags.username, ctx);
    let sandboxConfig: PodSandboxConfigIn | undefined;
    if (ctx.flags['pod-config']) {
      const { loadConfigFile } = await import('../cli/config-loader.js');
      try {
        sandboxConfig = await loadConfigFile(ctx.flags['pod-config'], 'pod');
      } catch (err) {
        throw new Error(`load podSandboxConfig: ${(err as Error).message}`);
      }
    }
    const backend = await ctx.backend();
    const display = progressDisplay(ctx.stderr);
    let ref: string;
    try {
      ({ imageRef: ref } = await backend.pullImage({ image: { image }, auth, sandboxConfig }, { progress: ctx.flags.quiet ? undefined : display.update }));
    } catch (err) {
      throw new Error(`pulling image: ${(err as Error).message}`);
    } finally {
      display.finish();
    }
    ctx.print(`Image is up to date for ${ref}\n`);
  },
});

/** crictl's parseCreds: USER or USER:PASS; the user may not be empty. */
export function parseCreds(creds: string): { username: string; password: string } {
  if (!creds) throw new Error("credentials can't be empty");
  const idx = creds.indexOf(':');
  if (idx < 0) return { username: creds, password: '' };
  if (idx === 0) throw new Error("username can't be empty");
  return { username: creds.slice(0, idx), password: creds.slice(idx + 1) };
}

/** crictl's getAuth: --username prompts for a password; --creds and --auth exclude each other. */
export async function getAuth(
  creds: string | undefined,
  auth: string | undefined,
  username: string | undefined,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
): Promise<AuthConfigIn | undefined> {
  if (username) {
    io.stdout.write('Enter Password:');
    const password = await readPassword(io.stdin);
    io.stdout.write('\n');
    return { username, password };
  }
  if (creds && auth) throw new Error('both `--creds` and `--auth` are specified');
  if (creds) return parseCreds(creds);
  if (auth) return { auth };
  return undefined;
}

/** Reads one line from stdin without echo when it is a terminal. */
function readPassword(stdin: NodeJS.ReadStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const tty = stdin.isTTY;
    if (tty) stdin.setRawMode(true);
    let buf = '';
    const done = (err?: Error) => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      if (tty) stdin.setRawMode(false);
      stdin.pause();
      if (err) reject(err);
      else resolve(buf);
    };
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new Error('interrupted'));
        if (ch === '\u007f' || ch === '\b') buf = buf.slice(0, -1);
        else buf += ch;
      }
    };
    const onEnd = () => done();
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume();
  });
}

type ProgressEvent = Parameters<PullProgress>[0];

/**
 * Per-layer pull progress (only the embedded backend reports it; CRI has none).
 * On a terminal: one bar per layer, redrawn in place. Otherwise: one line per
 * layer state change. Always on stderr, so stdout stays what crictl prints.
 */
export function progressDisplay(out: NodeJS.WriteStream): { update: PullProgress; finish(): void } {
  const layers = new Map<string, ProgressEvent>();
  const tty = Boolean(out.isTTY);
  let drawn = 0;
  let lastDraw = 0;
  const draw = (force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    const width = Math.max(20, Math.min(40, (out.columns ?? 80) - 50));
    let text = drawn > 0 ? `\x1b[${drawn}A` : '';
    for (const e of layers.values()) text += `\x1b[2K${progressLine(e, width)}\n`;
    drawn = layers.size;
    out.write(text);
  };
  return {
    update: (e) => {
      const prev = layers.get(e.layer);
      layers.set(e.layer, e);
      if (tty) draw(e.state !== prev?.state);
      else if (prev?.state !== e.state) out.write(`${progressLine(e)}\n`);
    },
    finish: () => {
      if (tty && layers.size > 0) draw(true);
    },
  };
}

const STATE_WORDS: Record<ProgressEvent['state'], string> = {
  waiting: 'Waiting',
  downloading: 'Downloading',
  extracting: 'Extracting',
  done: 'Pull complete',
  exists: 'Already exists',
};

/** "<12-hex layer>: Downloading [=====>     ] 1.2MB/3.4MB"; the bar only with a width. */
export function progressLine(e: ProgressEvent, barWidth?: number): string {
  const id = e.layer.replace(/^sha256:/, '').slice(0, 12);
  const word = STATE_WORDS[e.state];
  if (barWidth === undefined || (e.state !== 'downloading' && e.state !== 'extracting') || e.total <= 0) return `${id}: ${word}`;
  const frac = Math.max(0, Math.min(1, e.done / e.total));
  const filled = Math.floor(frac * barWidth);
  const bar = filled >= barWidth ? '='.repeat(barWidth) : `${'='.repeat(filled)}>${' '.repeat(barWidth - filled - 1)}`;
  return `${id}: ${word} [${bar}] ${humanSize(e.done)}/${humanSize(e.total)}`;
}
