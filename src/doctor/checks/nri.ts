// NRI: the socket plugins connect to, and the plugins registered. Only
// isulats (its daemon's admin service, or the embedded engine) can tell;
// elsewhere the check is skipped with '!'.
import type { NriConfigInfo, NriPluginInfo } from '../../client/backend.js';
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface NriFacts {
  /** Why it cannot be checked here (a foreign runtime). */
  skipped?: string;
  config?: NriConfigInfo;
  plugins?: NriPluginInfo[];
  socketExists?: boolean;
  error?: string;
}

export function evaluateNri(f: NriFacts): CheckResult[] {
  const title = 'NRI';
  if (f.skipped) return [warn('nri', title, `skipped: ${f.skipped}`)];
  if (f.error || !f.config) return [warn('nri', title, `cannot read the NRI state: ${f.error ?? 'no answer'}`)];
  const c = f.config;
  if (!c.enabled) return [ok('nri', title, 'disabled in the runtime configuration (nri.enabled: false)')];
  const out: CheckResult[] = [];
  if (c.mode === 'daemon' && c.externalConnections && !f.socketExists) {
    out.push(fail('nri.socket', 'NRI socket', `${c.socket} does not exist`, 'restart isulats daemon; it creates the socket at start'));
  } else {
    out.push(ok('nri.socket', 'NRI socket', c.mode === 'daemon' ? `${c.socket} (${c.externalConnections ? 'external plugins accepted' : 'pre-installed plugins only'})` : 'embedded mode: plugins run per operation'));
  }
  const plugins = f.plugins ?? [];
  out.push(ok('nri.plugins', 'NRI plugins', plugins.length
    ? plugins.map((p) => `${p.index}-${p.name}${p.external ? ' (external)' : ''}`).join(', ')
    : `none registered (plugin dir ${c.pluginDir})`));
  return out;
}
