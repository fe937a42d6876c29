// The default validator, configured like upstream's builtin one: it can
// reject OCI hook injection, seccomp policy changes (per kind of the
// container's profile), namespace and sysctl changes, and containers whose
// required plugins are not all present.
import type * as nri from '../../api/nri.js';
import { effectiveAnnotation } from '../annotations.js';
import type { Owners } from './owners.js';

export interface DefaultValidatorConfig {
  enable: boolean;
  rejectOCIHookAdjustment?: boolean;
  rejectRuntimeDefaultSeccompAdjustment?: boolean;
  rejectUnconfinedSeccompAdjustment?: boolean;
  rejectCustomSeccompAdjustment?: boolean;
  rejectNamespaceAdjustment?: boolean;
  rejectSysctlAdjustment?: boolean;
  /** Plugins (by name) that must be present for every container. */
  requiredPlugins?: string[];
  /** Annotation key that, set to "true", lets a container tolerate missing required plugins. */
  tolerateMissingPluginsAnnotation?: string;
}

/** Annotation listing extra required plugins (a YAML/JSON list of names). */
export const REQUIRED_PLUGINS_ANNOTATION = 'required-plugins.noderesource.dev';

export class ValidationError extends Error {
  constructor(message: string) {
    super(`NRI validation error: ${message}`);
    this.name = 'ValidationError';
  }
}

export interface ValidationInput {
  pod: nri.PodSandbox;
  container: nri.Container;
  adjust: nri.ContainerAdjustment;
  owners: Owners;
  /** Names (without index) of the plugins that took part. */
  plugins: string[];
}

function parseList(value: string): string[] {
  const trimmed = value.trim();
  if (trimmed.startsWith('[')) {
    const inner = trimmed.slice(1, -1);
    return inner.split(',').map((s) => s.trim().replace(/^["']|["']$/g, '')).filter(Boolean);
  }
  return trimmed.split('\n').map((s) => s.replace(/^\s*-\s*/, '').trim().replace(/^["']|["']$/g, '')).filter(Boolean);
}

export function validateDefault(cfg: DefaultValidatorConfig, input: ValidationInput): void {
  if (!cfg.enable) return;
  const id = input.container.id;
  if (cfg.rejectOCIHookAdjustment) {
    const owners = input.owners.owner(id, 'OciHooks');
    if (owners) {
      const who = owners.includes(',') ? `plugins ${JSON.stringify(owners)}` : `plugin ${JSON.stringify(owners)}`;
      throw new ValidationError(`${who} attempted restricted OCI hook injection`);
    }
  }
  const seccompOwner = input.owners.owner(id, 'SeccompPolicy');
  if (seccompOwner) {
    const profile = input.container.linux?.seccompProfile;
    const kind = profile?.profileType ?? 'UNCONFINED';
    if ((!profile || kind === 'UNCONFINED') && cfg.rejectUnconfinedSeccompAdjustment) {
      throw new ValidationError(`plugin ${seccompOwner} attempted restricted unconfined seccomp policy adjustment`);
    }
    if (profile && kind === 'RUNTIME_DEFAULT' && cfg.rejectRuntimeDefaultSeccompAdjustment) {
      throw new ValidationError(`plugin ${seccompOwner} attempted restricted runtime default seccomp policy adjustment`);
    }
    if (profile && kind === 'LOCALHOST' && cfg.rejectCustomSeccompAdjustment) {
      throw new ValidationError(`plugin ${seccompOwner} attempted restricted custom seccomp policy adjustment`);
    }
  }
  if (cfg.rejectNamespaceAdjustment) {
    const owners = input.owners.keyOwners(id, 'Namespace');
    if (owners.size > 0) {
      const list = [...owners].map(([ns, p]) => `${JSON.stringify(p)} (namespace ${JSON.stringify(ns)})`).join(', ');
      throw new ValidationError(`attempted restricted namespace adjustment by plugin(s) ${list}`);
    }
  }
  validateRequired(cfg, input);
  if (cfg.rejectSysctlAdjustment) {
    const owners = input.owners.keyOwners(id, 'Sysctl');
    if (owners.size > 0) {
      throw new ValidationError(`attempted restricted sysctl adjustment by plugin(s) ${[...new Set(owners.values())].join(', ')}`);
    }
  }
}

function validateRequired(cfg: DefaultValidatorConfig, input: ValidationInput): void {
  const name = input.container.name;
  if (cfg.tolerateMissingPluginsAnnotation) {
    const tolerate = effectiveAnnotation(input.pod, cfg.tolerateMissingPluginsAnnotation, name);
    if (tolerate !== undefined) {
      if (!['true', 'false', '1', '0'].includes(tolerate.toLowerCase())) {
        throw new ValidationError(`invalid ${cfg.tolerateMissingPluginsAnnotation} annotation ${JSON.stringify(tolerate)}`);
      }
      if (tolerate.toLowerCase() === 'true' || tolerate === '1') return;
    }
  }
  const required = [...(cfg.requiredPlugins ?? [])];
  const annotated = effectiveAnnotation(input.pod, REQUIRED_PLUGINS_ANNOTATION, name);
  if (annotated !== undefined) required.push(...parseList(annotated));
  const missing = required.filter((r) => !input.plugins.includes(r));
  if (missing.length === 1) throw new ValidationError(`required plugin ${JSON.stringify(missing[0])} not present`);
  if (missing.length > 1) throw new ValidationError(`required plugins ${JSON.stringify(missing.join(','))} not present`);
}
