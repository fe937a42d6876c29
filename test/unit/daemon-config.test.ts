import { describe, expect, it } from 'vitest';
import { engineOptions } from '../../src/client/embedded.js';
import {
  DaemonConfigError, defaultDaemonConfig, parseDaemonJson, resolveDaemonConfig, unixSockets,
} from '../../src/runtime/config/daemon-config.js';

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof DaemonConfigError) return err.problems;
    throw err;
  }
  throw new Error('expected a DaemonConfigError');
}

describe('daemon.json', () => {
  it('gives the documented defaults for an empty file', () => {
    const cfg = resolveDaemonConfig(parseDaemonJson(''));
    expect(cfg).toEqual(defaultDaemonConfig());
    expect(cfg.enableCriV1).toBe(true);
    expect(cfg.websocketServerListeningPort).toBe(10350);
    expect(unixSockets(cfg)).toEqual(['/var/run/isulats/isulats.sock']);
  });

  it('maps iSulad keys onto the config', () => {
    const file = parseDaemonJson(JSON.stringify({
      graph: '/data/isulats/',
      state: '/run/ist',
      hosts: ['unix:///run/ist/a.sock', 'tcp://127.0.0.1:2375', '/run/ist/b.sock'],
      'enable-cri-v1': false,
      'registry-mirrors': ['docker.io'],
      'insecure-registries': ['localhost:5000'],
      'pod-sandbox-image': 'localhost:5000/pause:3.9',
      'network-plugin': 'cni',
      'cni-bin-dir': '/opt/cni/bin:/usr/lib/cni',
      'cni-conf-dir': '/etc/cni/net.d',
      'websocket-server-listening-port': 10351,
      'log-level': 'DEBUG',
      'log-driver': 'file',
      'log-opts': { 'log-path': '/var/log/ist', 'log-file-mode': '0600', 'max-file': '3', 'max-size': '1MB' },
      'default-runtime': 'runc',
      'cgroup-manager': 'systemd',
      'drop-infra-container': false,
      'nri-support': true,
      'nri-socket': '/run/ist/nri.sock',
      'nri-registration-timeout': '3s',
      'nri-request-timeout': 1500,
      'disable-nri-connections': true,
      pidfile: '/run/ist/ist.pid',
    }));
    const cfg = resolveDaemonConfig(file);
    expect(cfg.root).toBe('/data/isulats');
    expect(cfg.hosts).toEqual(['unix:///run/ist/a.sock', 'tcp://127.0.0.1:2375', 'unix:///run/ist/b.sock']);
    expect(cfg.enableCriV1).toBe(false);
    expect(cfg.cniBinDirs).toEqual(['/opt/cni/bin', '/usr/lib/cni']);
    expect(cfg.logLevel).toBe('debug');
    expect(cfg.logOpts).toEqual({ logPath: '/var/log/ist', logFileMode: 0o600, maxFile: 3, maxSize: 1024 * 1024 });
    expect(cfg.nri).toMatchObject({ support: true, socket: '/run/ist/nri.sock', registrationTimeoutMs: 3000, requestTimeoutMs: 1500, disableConnections: true, pluginDir: '/opt/nri/plugins' });
    expect(cfg.cgroupManager).toBe('systemd');
    expect(cfg.dropInfraContainer).toBe(false);
    expect(defaultDaemonConfig().dropInfraContainer).toBe(true);
    expect(() => parseDaemonJson('{"drop-infra-container": "no"}')).toThrow(/"drop-infra-container": expected true or false/);
    // Through to the engine, embedded or in the daemon.
    expect(engineOptions(cfg).dropInfraContainer).toBe(false);
    expect(engineOptions(defaultDaemonConfig()).dropInfraContainer).toBe(true);
  });

  it('reports every unknown key and bad value, one line each', () => {
    const problems = problemsOf(() => parseDaemonJson(JSON.stringify({
      'enable_cri_v1': true,
      'no-such-key': 1,
      'websocket-server-listening-port': 70000,
      'log-level': 'loud',
      hosts: ['http://x'],
      graph: 'relative/dir',
      'enable-cri-v1': 'yes',
      'log-opts': { 'max-size': 'huge', color: true },
    })));
    expect(problems).toHaveLength(9);
    expect(problems).toContain('"enable_cri_v1": unknown key (did you mean "enable-cri-v1"?)');
    expect(problems).toContain('"no-such-key": unknown key');
    expect(problems.find((p) => p.startsWith('"websocket-server-listening-port"'))).toMatch(/1-65535, got 70000/);
    expect(problems.find((p) => p.startsWith('"log-level"'))).toMatch(/"trace", got "loud"/);
    expect(problems.find((p) => p.startsWith('"hosts[0]"'))).toMatch(/unix:\/\/\/path or tcp:\/\/host:port/);
    expect(problems.find((p) => p.startsWith('"graph"'))).toMatch(/absolute/);
    expect(problems.find((p) => p.startsWith('"enable-cri-v1"'))).toMatch(/true or false/);
    expect(problems.find((p) => p.startsWith('"log-opts.max-size"'))).toBeDefined();
    expect(problems.find((p) => p.startsWith('"log-opts.color"'))).toMatch(/unknown option/);
  });

  it('takes event-loop-nice as an integer -20..19 (default -10)', () => {
    expect(defaultDaemonConfig().eventLoopNice).toBe(-10);
    expect(resolveDaemonConfig(parseDaemonJson('{"event-loop-nice": 0}')).eventLoopNice).toBe(0);
    expect(resolveDaemonConfig(parseDaemonJson('{"event-loop-nice": -20}')).eventLoopNice).toBe(-20);
    for (const bad of ['-21', '20', '"-5"', '1.5']) {
      expect(problemsOf(() => parseDaemonJson(`{"event-loop-nice": ${bad}}`))).toEqual([`"event-loop-nice": expected a nice value, an integer -20..19, got ${bad}`]);
    }
  });

  it('rejects NRI timeouts longer than a timer can wait', () => {
    const problems = problemsOf(() => parseDaemonJson(JSON.stringify({ 'nri-request-timeout': '99999999m', 'nri-registration-timeout': 2147483648 })));
    expect(problems).toEqual([
      '"nri-request-timeout": at most 2147483647 ms (about 24 days), got "99999999m"',
      '"nri-registration-timeout": at most 2147483647 ms (about 24 days), got 2147483648',
    ]);
    expect(parseDaemonJson(JSON.stringify({ 'nri-request-timeout': 2147483647 })).nri?.requestTimeoutMs).toBe(2147483647);
  });

  it('takes nri-default-validator with containerd 2.x\'s key names and passes it to the engine', () => {
    const file = parseDaemonJson(JSON.stringify({
      'nri-support': true,
      'nri-default-validator': {
        enable: true, 'reject-oci-hook-adjustment': true, 'reject-namespace-adjustment': true, 'reject-seccomp-adjustment': true,
        'required-plugins': ['topology'], 'tolerate-missing-plugins-annotation': 'tolerate.example.com', 'allowed-plugins': ['topology', 'logger'],
      },
    }));
    const validator = {
      enable: true, rejectOCIHookAdjustment: true, rejectNamespaceAdjustment: true,
      rejectRuntimeDefaultSeccompAdjustment: true, rejectUnconfinedSeccompAdjustment: true, rejectCustomSeccompAdjustment: true,
      requiredPlugins: ['topology'], tolerateMissingPluginsAnnotation: 'tolerate.example.com', allowedPlugins: ['topology', 'logger'],
    };
    expect(file.nri?.validator).toEqual(validator);
    expect(engineOptions(resolveDaemonConfig(file), undefined, 'daemon').nri?.validator).toEqual(validator);
    expect(defaultDaemonConfig().nri.validator).toBeUndefined();
    expect(problemsOf(() => parseDaemonJson(JSON.stringify({ 'nri-default-validator': { enable: 'yes', 'reject-hooks': true, 'allowed-plugins': 'logger' } })))).toEqual([
      '"nri-default-validator.enable": expected true or false, got "yes"',
      expect.stringMatching(/^"nri-default-validator.reject-hooks": unknown option \(known: enable, reject-oci-hook-adjustment, /),
      expect.stringMatching(/^"nri-default-validator.allowed-plugins": /),
    ]);
  });

  it('rejects text that is not a JSON object', () => {
    expect(problemsOf(() => parseDaemonJson('{"graph": '))[0]).toMatch(/not valid JSON/);
    expect(problemsOf(() => parseDaemonJson('[1]'))[0]).toMatch(/JSON object/);
  });

  it('rejects socket paths over the unix limit', () => {
    const long = `/tmp/${'x'.repeat(110)}.sock`;
    expect(problemsOf(() => parseDaemonJson(JSON.stringify({ hosts: [long] })))[0]).toMatch(/limit is 107/);
  });

  it('lets flags win over the file', () => {
    const file = parseDaemonJson(JSON.stringify({
      graph: '/a', state: '/b', hosts: ['unix:///run/a.sock', 'tcp://127.0.0.1:1234'], 'log-level': 'warn', 'websocket-server-listening-port': 1,
    }));
    const cfg = resolveDaemonConfig(file, {
      socket: '/tmp/x/d.sock', root: '/r', state: '/s', logLevel: 'debug', websocketServerListeningPort: '2222', pidfile: '/tmp/x/p.pid', registryConfigDir: '/etc/reg',
    });
    expect(cfg.hosts).toEqual(['unix:///tmp/x/d.sock', 'tcp://127.0.0.1:1234']);
    expect(cfg).toMatchObject({ root: '/r', state: '/s', logLevel: 'debug', websocketServerListeningPort: 2222, pidfile: '/tmp/x/p.pid', registryConfigDir: '/etc/reg' });
  });

  it('takes --cni-conf-dir (or ISULATS_CNI_CONF_DIR) over the file, and wants it absolute', () => {
    const file = parseDaemonJson('{"cni-conf-dir": "/etc/cni/net.d"}');
    expect(resolveDaemonConfig(file, { cniConfDir: '/tmp/tour/net.d' }).cniConfDir).toBe('/tmp/tour/net.d');
    expect(resolveDaemonConfig(file).cniConfDir).toBe('/etc/cni/net.d');
    expect(problemsOf(() => resolveDaemonConfig(file, { cniConfDir: 'net.d' }))[0]).toMatch(/--cni-conf-dir/);
  });

  it('validates flag values like file values', () => {
    const problems = problemsOf(() => resolveDaemonConfig({}, { socket: 'tcp://1.2.3.4:5', root: 'rel', logLevel: 'chatty', websocketServerListeningPort: 'x' }));
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/--socket.*unix socket path/);
  });

  describe('runtimes and default-runtime', () => {
    it('adds handlers beside the built-in runc and picks the default among them', () => {
      const cfg = resolveDaemonConfig(parseDaemonJson(JSON.stringify({
        'default-runtime': 'crun',
        runtimes: { crun: { path: '/usr/bin/crun', 'runtime-args': ['--debug'] }, 'kata-runtime': { path: 'kata' } },
      })));
      expect(cfg.defaultRuntime).toBe('crun');
      expect(cfg.runtimes).toEqual({
        runc: { path: 'runc', runtimeArgs: [] },
        crun: { path: '/usr/bin/crun', runtimeArgs: ['--debug'] },
        'kata-runtime': { path: 'kata', runtimeArgs: [] },
      });
    });

    it('lets the file redefine runc', () => {
      const cfg = resolveDaemonConfig(parseDaemonJson(JSON.stringify({ runtimes: { runc: { path: '/opt/runc/bin/runc' } } })));
      expect(cfg.runtimes.runc).toEqual({ path: '/opt/runc/bin/runc', runtimeArgs: [] });
      expect(cfg.defaultRuntime).toBe('runc');
    });

    it('reports each bad entry, one line each', () => {
      const problems = problemsOf(() => parseDaemonJson(JSON.stringify({
        runtimes: {
          Crun: { path: '/usr/bin/crun' },
          nopath: { 'runtime-args': [] },
          rel: { path: 'bin/crun' },
          args: { path: 'crun', 'runtime-args': '--debug' },
          extra: { path: 'crun', runtime_type: 'io.containerd.runc.v2' },
          scalar: 'crun',
        },
      })));
      expect(problems).toEqual([
        '"runtimes.Crun": a runtime name is lower-case letters, digits and \'-\' (a DNS label)',
        '"runtimes.nopath": "path" is required',
        '"runtimes.rel.path": path must be absolute, got "bin/crun"',
        '"runtimes.args.runtime-args": expected an array of strings, got string',
        '"runtimes.extra.runtime_type": unknown option (known: path, runtime-args)',
        '"runtimes.scalar": expected an object with "path", got string',
      ]);
      expect(problemsOf(() => parseDaemonJson('{"runtimes": ["runc"]}'))).toEqual([
        '"runtimes": expected an object of runtime name to { "path", "runtime-args" }, got array',
      ]);
    });

    it('rejects a default-runtime that names no configured runtime', () => {
      expect(problemsOf(() => resolveDaemonConfig(parseDaemonJson('{"default-runtime": "crun"}')))).toEqual([
        '"default-runtime": "crun" is not in "runtimes" (known: runc)',
      ]);
    });
  });
});
