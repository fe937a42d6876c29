// Resolves requested CDI devices against the registry and applies their
// edits to a container's OCI spec. An unknown device fails the create with
// InvalidArgument naming it and the dirs searched (and the spec files that
// could not be read, which are often why).
import { invalidArgument } from '../errors.js';
import type { OciSpec } from '../container/spec.js';
import type { ResolvedCdiDevice } from './cdi-types.js';
import type { CdiRegistry } from './spec-registry.js';
import { applyEdits, collectEdits, type HostDeviceLookup } from './apply-edits.js';
import { hostDevice } from './host-device.js';
import { parseQualifiedName } from './qualified-name.js';

export async function injectCdiDevices(registry: CdiRegistry, spec: OciSpec, names: string[], lookup: HostDeviceLookup = hostDevice): Promise<OciSpec> {
  if (!names.length) return spec;
  for (const n of names) {
    const parsed = parseQualifiedName(n);
    if ('error' in parsed) throw invalidArgument(`CDI: ${parsed.error}`);
  }
  const snap = await registry.snapshot();
  const found: ResolvedCdiDevice[] = [];
  const missing: string[] = [];
  for (const n of names) {
    const d = snap.devices.get(n);
    if (d) found.push(d);
    else missing.push(n);
  }
  if (missing.length) {
    const broken = snap.errors.size ? `; ${snap.errors.size} spec file(s) skipped: ${[...snap.errors].map(([p, e]) => `${p}: ${e}`).join('; ')}` : '';
    throw invalidArgument(`CDI: unresolvable CDI device(s) ${missing.join(', ')} (searched ${registry.dirs.join(', ')}${broken})`);
  }
  try {
    return applyEdits(spec, collectEdits(found), lookup);
  } catch (err) {
    throw invalidArgument(`CDI: cannot inject ${names.join(', ')}: ${(err as Error).message}`);
  }
}
