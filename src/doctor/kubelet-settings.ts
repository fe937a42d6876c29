// Where a node's kubelet takes its settings from, and one setting read as kubelet reads it: the
// config file (`/var/lib/kubelet/config.yaml`, kubeadm writes it) then the command-line flags,
// which win over the file. kubeadm's unit drop-in starts kubelet with
// `$KUBELET_KUBEADM_ARGS` (from /var/lib/kubelet/kubeadm-flags.env) and then `$KUBELET_EXTRA_ARGS`
// (from /etc/default/kubelet, /etc/sysconfig/kubelet on RHEL), and a later flag wins over an
// earlier one, so the files are read in that order.
import { join } from 'node:path';
import type { HostProbe } from './host-probe.js';

export interface KubeletPaths {
  config: string;
  /** Environment files with kubelet flags, in the order kubelet sees their flags. */
  flagFiles: string[];
}

/**
 * The files of this node's kubelet. `--kubelet-config` names the config file; ISULATS_KUBELET_DIR
 * moves /var/lib/kubelet (config.yaml, kubeadm-flags.env), ISULATS_KUBELET_ENV_FILES replaces the
 * list of env files after kubeadm's (colon-separated).
 */
export function kubeletPaths(env: NodeJS.ProcessEnv = process.env, configFlag?: string): KubeletPaths {
  const dir = env.ISULATS_KUBELET_DIR || '/var/lib/kubelet';
  const extra = env.ISULATS_KUBELET_ENV_FILES !== undefined ? env.ISULATS_KUBELET_ENV_FILES.split(':').filter(Boolean) : ['/etc/default/kubelet', '/etc/sysconfig/kubelet'];
  return { config: configFlag || join(dir, 'config.yaml'), flagFiles: [join(dir, 'kubeadm-flags.env'), ...extra] };
}

/** A setting and where it came from: the config file's key, or a flag in an env file. */
export interface KubeletSetting {
  value: string;
  source: string;
  from: 'config' | 'flag';
}

/** The config file's top-level `key: value` (YAML scalar, quoted or not, comment allowed). */
export function kubeletConfigValue(configYaml: string, key: string): string | undefined {
  const m = new RegExp(`^${key}:[ \\t]*(?:"([^"]*)"|'([^']*)'|([^\\s#]*))[ \\t]*(?:#.*)?$`, 'm').exec(configYaml);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

/**
 * The last `--name=value` or `--name value` in an env file's assignments
 * (`KUBELET_KUBEADM_ARGS="--cgroup-driver=systemd ..."`); comments are skipped.
 */
export function kubeletFlagValue(envText: string, name: string): string | undefined {
  let found: string | undefined;
  for (const line of envText.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const words = trimmed.replace(/^[A-Za-z_][A-Za-z0-9_]*=/, '').replace(/["']/g, ' ').split(/\s+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      if (w === `--${name}` && i + 1 < words.length && !words[i + 1]!.startsWith('--')) found = words[++i];
      else if (w.startsWith(`--${name}=`)) found = w.slice(name.length + 3);
    }
  }
  return found;
}

/** Whether kubelet is configured here at all (its config file or a flags file exists). */
export async function kubeletPresent(probe: HostProbe, paths: KubeletPaths): Promise<boolean> {
  for (const file of [paths.config, ...paths.flagFiles]) if ((await probe.readText(file)) !== undefined) return true;
  return false;
}

/** One setting as kubelet resolves it: the last flag that sets it, else the config file's key. */
export async function readKubeletSetting(probe: HostProbe, paths: KubeletPaths, key: string, flag: string): Promise<KubeletSetting | undefined> {
  let setting: KubeletSetting | undefined;
  const config = await probe.readText(paths.config);
  const fromConfig = config === undefined ? undefined : kubeletConfigValue(config, key);
  if (fromConfig !== undefined) setting = { value: fromConfig, source: paths.config, from: 'config' };
  for (const file of paths.flagFiles) {
    const text = await probe.readText(file);
    const value = text === undefined ? undefined : kubeletFlagValue(text, flag);
    if (value !== undefined) setting = { value, source: file, from: 'flag' };
  }
  return setting;
}
