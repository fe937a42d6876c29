import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import type { DaemonRun } from '../daemon/run-daemon.js';
import { failedPrecondition } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Run the CRI daemon (runtime.v1 and runtime.v1alpha2) on a unix socket',
  description:
    'Serves RuntimeService and ImageService of CRI runtime.v1 and runtime.v1alpha2 on --socket ' +
    '(default /var/run/isulats/isulats.sock, mode 0660) and on the `hosts` of daemon.json (tcp:// only when listed there). ' +
    'Logs are JSON lines on stdout. SIGTERM/SIGINT stop it gracefully (containers keep running); SIGHUP reloads the log level. ' +
    'The socket appears only once the daemon answers.',
  examples: [
    '<%= config.bin %> daemon',
    '<%= config.bin %> daemon --socket /run/isulats/isulats.sock --log-level debug',
    '<%= config.bin %> daemon --config-file /etc/isulats/daemon.json --validate',
  ],
  flags: {
    socket: Flags.string({ summary: 'Unix socket to serve CRI on (default /var/run/isulats/isulats.sock)' }),
    'config-file': Flags.string({ summary: 'daemon.json to read (default /etc/isulats/daemon.json)' }),
    'websocket-server-listening-port': Flags.string({ summary: 'Port of the exec/attach/port-forward streaming server on 127.0.0.1 (default 10350)' }),
    'log-level': Flags.string({ summary: 'fatal, alert, crit, error, warn, notice, info, debug or trace (default info)' }),
    pidfile: Flags.string({ summary: 'Pid file, also the single-instance lock (default /var/run/isulats.pid)' }),
    'cni-conf-dir': Flags.string({ summary: 'CNI network config directory (default $ISULATS_CNI_CONF_DIR, else daemon.json: cni-conf-dir, else /etc/cni/net.d)' }),
    'metrics-address': Flags.string({ summary: 'Serve Prometheus metrics at http://HOST:PORT/metrics (daemon.json: metrics-address; off by default)' }),
    'enable-nri': Flags.boolean({ summary: 'Enable NRI (daemon.json: nri-support)' }),
    'nri-socket': Flags.string({ summary: 'NRI socket for external plugins (default /var/run/nri/nri.sock)' }),
    'nri-plugin-dir': Flags.string({ summary: 'Directory of pre-installed NRI plugins, files named IDX-NAME (default /opt/nri/plugins)' }),
    'nri-plugin-config-dir': Flags.string({ summary: 'Directory of per-plugin configuration (default /etc/nri/conf.d)' }),
    'nri-registration-timeout': Flags.string({ summary: 'Time a plugin has to register, e.g. 5s' }),
    'nri-request-timeout': Flags.string({ summary: 'Time a plugin has to answer a request, e.g. 2s' }),
    'disable-nri-connections': Flags.boolean({ summary: 'Only pre-installed plugins: no NRI socket for external ones' }),
    validate: Flags.boolean({ summary: 'Check the configuration and exit: 0 when valid, 1 otherwise' }),
    'backend-endpoint': Flags.string({ hidden: true, summary: 'Serve a proxy to this CRI endpoint instead of the embedded engine (testing)' }),
  },
  async run(ctx) {
    const { DEFAULT_CONFIG_FILE } = await import('../runtime/config/daemon-config.js');
    const { loadDaemonConfig, serveDaemon } = await import('../daemon/run-daemon.js');
    // NRI flags carry daemon.json's keys and values: parsed and checked exactly as the file's are.
    const nriKeys = ['nri-socket', 'nri-plugin-dir', 'nri-plugin-config-dir', 'nri-registration-timeout', 'nri-request-timeout'];
    const nriFlags: Record<string, unknown> = {};
    if (ctx.flags['enable-nri']) nriFlags['nri-support'] = true;
    if (ctx.flags['disable-nri-connections']) nriFlags['disable-nri-connections'] = true;
    for (const k of nriKeys) if (ctx.flags[k] !== undefined) nriFlags[k] = ctx.flags[k];
    const run: DaemonRun = {
      configPath: ctx.flags['config-file'] ?? DEFAULT_CONFIG_FILE,
      explicit: ctx.flags['config-file'] !== undefined,
      flags: {
        socket: ctx.flags.socket,
        root: ctx.globals.root,
        state: ctx.globals.state,
        registryConfigDir: ctx.globals.registryConfigDir,
        websocketServerListeningPort: ctx.flags['websocket-server-listening-port'],
        logLevel: ctx.flags['log-level'] ?? (ctx.globals.debug ? 'debug' : undefined),
        pidfile: ctx.flags.pidfile,
        metricsAddress: ctx.flags['metrics-address'],
        // The embedded CLI's variable too, so that one export serves the CLI and the daemon alike.
        cniConfDir: ctx.flags['cni-conf-dir'] ?? (process.env.ISULATS_CNI_CONF_DIR || undefined),
      },
      nriFlags,
      backendEndpoint: ctx.flags['backend-endpoint'],
    };
    const config = await loadDaemonConfig(run);
    if (ctx.flags.validate) {
      ctx.print(`configuration is valid (${run.explicit ? run.configPath : `${run.configPath}, defaults where absent`})\n`);
      return 0;
    }
    // Before anything is opened (the pid file, the event loop's priority): the engine needs root.
    if (!run.backendEndpoint && process.getuid?.() !== 0) {
      throw failedPrecondition('daemon: the embedded engine needs root (it runs runc, mounts overlays and sets up networks); run it as root, as the systemd unit does');
    }
    // Once, before anything is opened: the same process again under the daemon's V8 and glibc
    // settings, on the daemon's own bundle (this parse travels with it).
    const { reexecForDaemon } = await import('../daemon/process-tuning.js');
    await reexecForDaemon((msg) => process.stderr.write(`isulats daemon: ${msg}\n`), run);
    return serveDaemon(run, config);
  },
});
