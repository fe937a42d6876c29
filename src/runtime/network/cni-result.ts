// Pure helpers over CNI JSON: conflist normalisation and result parsing
// (spec 0.3.0+ `ips[]`, and 0.1/0.2 `ip4`/`ip6`).
export interface CniPluginConf {
  type: string;
  capabilities?: Record<string, boolean>;
  [key: string]: unknown;
}

export interface CniConfList {
  cniVersion: string;
  name: string;
  disableCheck?: boolean;
  plugins: CniPluginConf[];
}

export interface CniResult {
  cniVersion?: string;
  interfaces?: Array<{ name: string; mac?: string; sandbox?: string }>;
  ips?: Array<{ address: string; gateway?: string; interface?: number; version?: string }>;
  ip4?: { ip: string; gateway?: string };
  ip6?: { ip: string; gateway?: string };
  [key: string]: unknown;
}

/** A .conflist as is, or a single-plugin .conf wrapped into a list. */
export function toConfList(raw: unknown, file: string): CniConfList {
  if (!raw || typeof raw !== 'object') throw new Error(`${file}: not a JSON object`);
  const obj = raw as Record<string, unknown>;
  if (typeof obj.name !== 'string' || !obj.name) throw new Error(`${file}: missing network name`);
  if (Array.isArray(obj.plugins)) {
    if (obj.plugins.length === 0) throw new Error(`${file}: no plugins`);
    for (const p of obj.plugins) if (!p || typeof (p as CniPluginConf).type !== 'string') throw new Error(`${file}: a plugin has no type`);
    return { cniVersion: String(obj.cniVersion ?? '0.4.0'), name: obj.name, disableCheck: obj.disableCheck === true, plugins: obj.plugins as CniPluginConf[] };
  }
  if (typeof obj.type !== 'string') throw new Error(`${file}: missing plugin type`);
  const { cniVersion, name, ...plugin } = obj;
  return { cniVersion: String(cniVersion ?? '0.4.0'), name: name as string, plugins: [plugin as CniPluginConf] };
}

/** Pod IPs from a result, IPv4 first, without prefix lengths. */
export function podIps(result: CniResult | undefined): string[] {
  if (!result) return [];
  const addrs: string[] = [];
  for (const ip of result.ips ?? []) if (ip.address) addrs.push(ip.address.split('/')[0]!);
  if (result.ip4?.ip) addrs.push(result.ip4.ip.split('/')[0]!);
  if (result.ip6?.ip) addrs.push(result.ip6.ip.split('/')[0]!);
  return addrs.sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
}

/** The config one plugin receives on stdin: list-level name and version, capability args, prevResult. */
export function pluginStdin(list: CniConfList, plugin: CniPluginConf, runtimeConfig: Record<string, unknown>, prevResult?: CniResult): Record<string, unknown> {
  const conf: Record<string, unknown> = { ...plugin, cniVersion: list.cniVersion, name: list.name };
  const wanted: Record<string, unknown> = {};
  for (const [cap, enabled] of Object.entries(plugin.capabilities ?? {})) {
    if (enabled && runtimeConfig[cap] !== undefined) wanted[cap] = runtimeConfig[cap];
  }
  if (Object.keys(wanted).length) conf.runtimeConfig = wanted;
  else delete conf.runtimeConfig;
  if (prevResult) conf.prevResult = prevResult;
  return conf;
}

export interface CniError {
  code?: number;
  msg?: string;
  details?: string;
}

export function describeCniError(stdout: string, stderr: string): string {
  try {
    const e = JSON.parse(stdout) as CniError;
    if (e.msg) return `${e.msg}${e.details ? `: ${e.details}` : ''}${e.code !== undefined ? ` (code ${e.code})` : ''}`;
  } catch {
    // not JSON
  }
  return (stderr || stdout).trim() || 'no output';
}
