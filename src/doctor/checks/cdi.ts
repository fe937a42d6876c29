// CDI: the spec dirs the runtime reads, how many specs and devices they hold,
// and the spec files it would skip (a device plugin's broken spec makes every
// pod that asks for its devices fail to create).
import { ok, warn, type CheckResult } from '../check-result.js';

export interface CdiFacts {
  /** false when the runtime's configuration turns CDI off (containerd 1.7's enable_cdi). */
  enabled: boolean;
  dirs: Array<{ path: string; exists: boolean }>;
  specs: number;
  devices: number;
  /** spec file → why it is skipped. */
  errors: Array<[string, string]>;
}

export function evaluateCdi(f: CdiFacts): CheckResult[] {
  const title = 'CDI';
  if (!f.enabled) return [warn('cdi', title, 'disabled in the runtime configuration (enable_cdi: false): CDI devices are not injected', 'set enable_cdi = true in the CRI plugin configuration')];
  const dirs = f.dirs.map((d) => (d.exists ? d.path : `${d.path} (missing)`)).join(', ');
  const found = `${f.devices} device(s) in ${f.specs} spec(s) from ${dirs}`;
  if (f.errors.length) {
    const [path, why] = f.errors[0]!;
    return [warn('cdi', title, `${found}; ${f.errors.length} spec file(s) skipped, first ${path}: ${why}`, 'fix or remove the spec file (its vendor\'s tool writes it)')];
  }
  return [ok('cdi', title, found)];
}
