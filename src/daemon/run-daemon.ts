// `isulats daemon` once its command line is parsed: the configuration (daemon.json under the
// flags), the one re-exec under the daemon's process settings (process-tuning.ts), then the
// daemon until it stops. The re-executed process does not parse its command line again: the
// parsed form travels in DAEMON_RUN_VARIABLE, and bin/isulats.cjs then loads the daemon's own
// bundle (dist/isulats-daemon.cjs, from main.ts) instead of the CLI's, so the daemon never holds
// oclif and the other commands (their code and what they load, 2-3 MB of resident memory).
import type { CriBackend } from '../client/backend.js';
import type { DaemonConfig, DaemonFlags } from '../runtime/config/daemon-config.js';
import type { Logger } from './logger.js';

/** The daemon's command line, parsed: what every (re)load of the configuration needs. */
export interface DaemonRun {
  configPath: string;
  /** --config-file was given: a missing file is then an error, not the defaults. */
  explicit: boolean;
  flags: DaemonFlags;
  /** NRI flags under their daemon.json keys, parsed as the file's are. */
  nriFlags: Record<string, unknown>;
  /** Serve a proxy to this CRI endpoint instead of the embedded engine (tests). */
  backendEndpoint?: string;
}

/** Set by the re-exec to the JSON of the DaemonRun; read (and removed) by main.ts. */
export const DAEMON_RUN_VARIABLE = 'ISULATS_DAEMON_RUN';

/** Reads daemon.json and applies the flags; throws one clear error when either is invalid. */
export async function loadDaemonConfig(run: DaemonRun): Promise<DaemonConfig> {
  const cfgMod = await import('../runtime/config/daemon-config.js');
  const fromFlags = cfgMod.parseDaemonJson(JSON.stringify(run.nriFlags), 'command line');
  const file = await cfgMod.readDaemonJson(run.configPath, run.explicit);
  return cfgMod.resolveDaemonConfig({ ...file, ...fromFlags, nri: { ...file.nri, ...fromFlags.nri } }, run.flags);
}

/** Serves until the daemon stops (a signal); answers the exit code. */
export async function serveDaemon(run: DaemonRun, config: DaemonConfig): Promise<number> {
  const endpoint = run.backendEndpoint;
  const backendFactory = async (cfg: DaemonConfig, log: Logger): Promise<CriBackend> => {
    if (endpoint) {
      const { RemoteBackend } = await import('../client/remote.js');
      return new RemoteBackend({ runtimeEndpoint: endpoint, timeoutMs: 120_000 });
    }
    const { openEmbeddedBackend } = await import('../client/embedded.js');
    // The engine's warnings (NRI plugins failing, recovery problems) and notable events go to the daemon's log.
    const engineLog = { warn: (m: string) => log.warn(m, { source: 'engine' }), info: (m: string) => log.info(m, { source: 'engine' }), debug: (m: string) => log.debug(m, { source: 'engine' }) };
    return openEmbeddedBackend({ timeoutMs: 120_000, daemonConfig: cfg, engineLog });
  };
  const { startDaemon } = await import('./daemon.js');
  const daemon = await startDaemon({ config, backendFactory, handleSignals: true, raiseEventLoop: true, reloadConfig: () => loadDaemonConfig(run) });
  await daemon.stopped;
  return 0;
}
