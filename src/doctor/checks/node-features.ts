// The node features newer kubelets use (CDI devices, image volumes, container
// checkpoints): which the runtime has on this host, and why not where not.
// isulats says so in verbose Status (`info.nodeFeatures`); other runtimes do not.
import { ok, warn, type CheckResult } from '../check-result.js';

interface Feature { available: boolean; reason?: string }
const NAMES: Record<string, string> = { cdi: 'CDI devices', imageVolumes: 'image volumes', checkpoint: 'checkpoint' };

export function evaluateNodeFeatures(info: Record<string, string> | undefined): CheckResult[] {
  const title = 'node features';
  let features: Record<string, Feature>;
  try {
    features = info?.nodeFeatures ? (JSON.parse(info.nodeFeatures) as Record<string, Feature>) : {};
  } catch {
    features = {};
  }
  if (!Object.keys(features).length) return [warn('features', title, 'skipped: the runtime does not report them (isulats does in verbose Status)')];
  const parts = Object.entries(features).map(([k, f]) => `${NAMES[k] ?? k}: ${f.available ? 'yes' : `no (${f.reason ?? 'unknown'})`}`);
  return [ok('features', title, parts.join('; '))];
}
