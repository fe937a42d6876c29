import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/**
 * Arms a SIGINT/SIGTERM handler for the vitest main process. vitest exits 1 ms after such a signal,
 * so the handler only does synchronous work: it bundles reap-main.ts (next to the sources, so
 * import.meta.url paths and node_modules resolve) and launches it detached; the reaper waits for
 * this process to end and then tears down every rig whose owner is gone. Returns the disarm function.
 */
export function armInterruptReaper(): () => void {
  const onSignal = (): void => {
    try {
      const entry = fileURLToPath(new URL('./reap-main.ts', import.meta.url));
      const out = fileURLToPath(new URL(`./.reaper-${process.pid}.mjs`, import.meta.url));
      buildSync({
        entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', packages: 'external',
        outfile: out, logLevel: 'silent',
      });
      spawn(process.execPath, [out, String(process.pid), out], { detached: true, stdio: 'ignore' }).unref();
      process.stderr.write('[rig] interrupted: a detached reaper will stop the rig\n');
    } catch (error) {
      process.stderr.write(`[rig] could not launch the reaper: ${(error as Error).message}\n`);
    }
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
