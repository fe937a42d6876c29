// Platform selection from manifest lists / OCI indexes, as containerd's default matcher does.
import type { Descriptor, Platform } from './manifest.js';

/** The platform this process runs on, in OCI terms. */
export function hostPlatform(): Platform {
  const arch: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };
  const architecture = arch[process.arch] ?? process.arch;
  const p: Platform = { os: 'linux', architecture };
  if (architecture === 'arm64') p.variant = 'v8';
  if (architecture === 'arm') {
    const v = (process.config.variables as Record<string, unknown>).arm_version;
    p.variant = `v${typeof v === 'string' || typeof v === 'number' ? v : '7'}`;
  }
  return p;
}

/** "linux/arm64/v8" -> Platform */
export function parsePlatform(spec: string): Platform {
  const [os, architecture, variant] = spec.split('/');
  if (!os || !architecture) throw new Error(`invalid platform "${spec}" (want os/arch[/variant])`);
  return { os, architecture, variant };
}

function normaliseVariant(arch: string, variant: string | undefined): string | undefined {
  if (arch === 'arm64' && (variant === undefined || variant === '' || variant === 'v8')) return 'v8';
  return variant || undefined;
}

/** True when a manifest for `candidate` runs on `want` (an arm v7 host also runs v6 and v5). */
export function platformMatches(want: Platform, candidate: Platform): boolean {
  if (candidate.os !== want.os || candidate.architecture !== want.architecture) return false;
  const wantVariant = normaliseVariant(want.architecture, want.variant);
  const gotVariant = normaliseVariant(candidate.architecture, candidate.variant);
  if (!wantVariant || !gotVariant) return true;
  if (wantVariant === gotVariant) return true;
  if (want.architecture === 'arm') return Number(gotVariant.slice(1)) < Number(wantVariant.slice(1));
  return false;
}

/** Best manifest for `want`: exact variant first, then compatible; undefined when none. */
export function selectManifest(manifests: Descriptor[], want: Platform): Descriptor | undefined {
  const candidates = manifests.filter((m) => m.platform && platformMatches(want, m.platform));
  const wantVariant = normaliseVariant(want.architecture, want.variant);
  return (
    candidates.find((m) => normaliseVariant(m.platform!.architecture, m.platform!.variant) === wantVariant) ??
    candidates.sort((a, b) => byCodeUnits(b.platform!.variant ?? '', a.platform!.variant ?? ''))[0]
  );
}

/** String order by code units: localeCompare would load ICU's collator (~3 MB) into the daemon. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
