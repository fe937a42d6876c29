import { fileURLToPath } from 'node:url';
import { run } from './proc.js';

/** The pause program's source, kept in the repo so its hash keys the image cache. */
export const PAUSE_SOURCE = fileURLToPath(new URL('../../assets/pause/pause.c', import.meta.url));

/** Compiles assets/pause/pause.c into a static binary at `out`. */
export async function compilePause(out: string): Promise<void> {
  await run('gcc', ['-static', '-O2', '-s', '-o', out, PAUSE_SOURCE], { timeoutMs: 120_000 });
}
