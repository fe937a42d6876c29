import { stringify } from 'smol-toml';

export interface ContainerdConfigInput {
  root: string;
  state: string;
  socket: string;
  sandboxImage: string;
  streamPort: number;
  cniBinDir: string;
  cniConfDir: string;
  /** Dir of per-registry `HOST/hosts.toml` files (containerd reads it at each pull). */
  certsDir: string;
  /** containerd 1.7's NRI, enabled with everything under our temp dir (1.6 has no such plugin). */
  nri?: ContainerdNriConfig;
}

export interface ContainerdNriConfig {
  socketPath: string;
  /** Pre-installed plugins (none in our tests: the default /opt/nri/plugins must not be read). */
  pluginDir: string;
  pluginConfigDir: string;
}

/** Plugins that cannot work in this sandbox or are not wanted (no aufs/btrfs/zfs/devmapper, no tracing).
 * io.containerd.runtime.v1.linux stays: 1.6's tasks service, and so CRI, fails to load without it. */
const DISABLED_PLUGINS = [
  'io.containerd.snapshotter.v1.aufs',
  'io.containerd.snapshotter.v1.btrfs',
  'io.containerd.snapshotter.v1.zfs',
  'io.containerd.snapshotter.v1.devmapper',
  'io.containerd.internal.v1.tracing',
  'io.containerd.tracing.processor.v1.otlp',
];

/** containerd 1.6 or 1.7 config (version 2) for the rig: everything under our temp dirs. */
export function containerdConfigToml(input: ContainerdConfigInput): string {
  const config = {
    version: 2,
    root: input.root,
    state: input.state,
    disabled_plugins: DISABLED_PLUGINS,
    grpc: { address: input.socket },
    ttrpc: { address: `${input.socket}.ttrpc` },
    debug: { level: 'info' },
    plugins: {
      'io.containerd.grpc.v1.cri': {
        sandbox_image: input.sandboxImage,
        restrict_oom_score_adj: true,
        stream_server_address: '127.0.0.1',
        stream_server_port: String(input.streamPort),
        netns_mounts_under_state_dir: true,
        disable_apparmor: true,
        enable_selinux: false,
        max_container_log_line_size: 16384,
        containerd: {
          snapshotter: 'overlayfs',
          default_runtime_name: 'runc',
          runtimes: {
            // runc's state under our state dir, not the shared /run/containerd/runc.
            runc: { runtime_type: 'io.containerd.runc.v2', options: { SystemdCgroup: false, Root: `${input.state}/runc` } },
          },
        },
        cni: { bin_dir: input.cniBinDir, conf_dir: input.cniConfDir, max_conf_num: 1 },
        registry: { config_path: input.certsDir },
      },
      'io.containerd.internal.v1.opt': { path: `${input.root}/opt` },
      ...(input.nri ? { 'io.containerd.nri.v1.nri': nriPluginConfig(input.nri) } : {}),
    },
  };
  return stringify(config);
}

function nriPluginConfig(nri: ContainerdNriConfig): Record<string, unknown> {
  return {
    disable: false,
    disable_connections: false,
    socket_path: nri.socketPath,
    plugin_path: nri.pluginDir,
    plugin_config_path: nri.pluginConfigDir,
    plugin_registration_timeout: '5s',
    plugin_request_timeout: '2s',
  };
}

/** hosts.toml that makes containerd pull `host` over plain http. */
export function plainHttpHostsToml(host: string): string {
  return stringify({
    server: `http://${host}`,
    host: { [`http://${host}`]: { capabilities: ['pull', 'resolve', 'push'], skip_verify: true } },
  });
}
