// `top`'s refresh loops: the live full-terminal view (alternate screen, raw
// keys) and, when stdout is no terminal, plain tables one after another.
// Both read the node every interval and stop after `count` refreshes if given.
import { cpus, totalmem } from 'node:os';
import type { CommandContext } from '../context.js';
import type { CriBackend } from '../../client/backend.js';
import { enterRawMode } from '../../client/streaming/terminal.js';
import { sampleNode, type NodeSample } from './node-sample.js';
import { buildView, containerOrder, SORT_KEYS, type SortKey, type TopView, type ViewOptions } from './top-model.js';
import { renderInspectPage, renderPlain, renderScreen } from './top-screen.js';
import { decodeKeys, moveSelection } from './top-keys.js';

export interface TopOptions extends ViewOptions {
  intervalMs: number;
  /** Stop after this many refreshes (undefined: until q or Ctrl-C). */
  count?: number;
}

/** The first CPU % needs two readings: the first refresh comes this soon after the first reading. */
const PRIMING_MS = 1000;

/** Reads the node; each call after the first yields a view with CPU % over the time since the previous one. */
function viewer(backend: CriBackend): (opts: ViewOptions) => Promise<TopView> {
  let prev: NodeSample | undefined;
  return async (opts) => {
    const cur = await sampleNode(backend);
    const view = buildView(prev, cur, opts);
    prev = cur;
    return view;
  };
}

export async function plainTop(ctx: CommandContext, backend: CriBackend, o: TopOptions): Promise<void> {
  const next = viewer(backend);
  await next(o);
  const stop = abortOnSigint();
  try {
    await sleep(Math.min(PRIMING_MS, o.intervalMs), stop.signal);
    for (let n = 1; !stop.signal.aborted; n++) {
      ctx.print(`${renderPlain(await next(o))}\n`);
      if (o.count !== undefined && n >= o.count) break;
      await sleep(o.intervalMs, stop.signal);
    }
  } finally {
    stop.dispose();
  }
}

export async function liveTop(ctx: CommandContext, backend: CriBackend, o: TopOptions): Promise<void> {
  const out = ctx.stdout;
  const next = viewer(backend);
  let sort: SortKey = o.sort;
  let view: TopView | undefined;
  let selected: string | undefined;
  let page: string[] | undefined; // the inspect page while shown
  let refreshes = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  const draw = () => {
    const size = { width: out.columns || 80, height: out.rows || 24 };
    const lines = page
      ? renderInspectPage(page.join('\n'), size.width, size.height)
      : view
        ? renderScreen(view, { ...size, selected, sort, intervalMs: o.intervalMs, cores: cpus().length || 1, memTotalBytes: totalmem(), target: backend.target })
        : ['isulats top - reading the node...'];
    out.write(`\x1b[H${lines.map((l) => `${l}\x1b[K`).join('\r\n')}\x1b[J`);
  };
  const refresh = async () => {
    view = await next({ ...o, sort });
    if (!selected || !containerOrder(view).includes(selected)) selected = containerOrder(view)[0];
    refreshes++;
    if (!page) draw();
    if (o.count !== undefined && refreshes >= o.count) finish();
  };
  const openInspect = async (id: string) => {
    const { containerStatusDoc, renderStatusDoc, statusInfoDoc } = await import('../status-output.js');
    const r = await backend.containerStatus({ containerId: id, verbose: true });
    const text = r.status ? await renderStatusDoc(statusInfoDoc(await containerStatusDoc(r.status), r.info), 'json') : `container ${id}: no status`;
    page = text.split('\n');
    draw();
  };
  const onKeys = (data: Buffer) => {
    for (const key of decodeKeys(data.toString('latin1'))) {
      if (page) {
        page = undefined; // any key returns
        draw();
        continue;
      }
      if (key === 'quit') finish();
      else if (key === 'up' || key === 'down') selected = moveSelection(view ? containerOrder(view) : [], selected, key);
      else if (key === 'sort') {
        sort = SORT_KEYS[(SORT_KEYS.indexOf(sort) + 1) % SORT_KEYS.length]!;
        if (view) void refresh().catch(fail);
      } else if (key === 'enter' && selected) void openInspect(selected).catch(fail);
      if (!page) draw();
    }
  };
  let failure: unknown;
  const fail = (err: unknown) => {
    failure = err;
    finish();
  };
  const restoreRaw = enterRawMode(ctx.stdin);
  out.write('\x1b[?1049h\x1b[?25l'); // alternate screen, cursor hidden
  const onResize = () => draw();
  out.on('resize', onResize);
  ctx.stdin.on('data', onKeys);
  ctx.stdin.resume();
  let timer: NodeJS.Timeout | undefined;
  try {
    draw();
    await next({ ...o, sort });
    const schedule = (ms: number) => {
      timer = setTimeout(() => {
        refresh().then(() => schedule(o.intervalMs), fail);
      }, ms);
    };
    schedule(Math.min(PRIMING_MS, o.intervalMs));
    await finished;
    if (failure) throw failure;
  } finally {
    clearTimeout(timer);
    ctx.stdin.off('data', onKeys);
    ctx.stdin.pause();
    out.off('resize', onResize);
    out.write('\x1b[?25h\x1b[?1049l');
    restoreRaw();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Ctrl-C ends the plain loop with status 0, as crictl stats --watch does. */
function abortOnSigint(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  return { signal: ac.signal, dispose: () => process.off('SIGINT', onSigint) };
}
