// Which pods' annotations an example plugin takes. Anyone who can create a
// pod writes its annotations: a plugin that turns them into host mounts,
// devices, env or rlimits hands those to every pod author on the node. So
// the examples take nothing from annotations unless their configuration
// names the namespaces to trust (and, optionally, which of their keys):
//   allowedNamespaces: [kube-system, gpu-jobs]   # "*" trusts every namespace
//   allowedKeys: [ulimits.nri.isulats.io]        # default: all of the plugin's keys
// The configuration comes from the runtime (IDX-NAME.conf beside a
// pre-installed plugin), from `--config FILE` when started by hand, or from
// the constructor (tests, embedding).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { effectiveAnnotation, type nri } from '../../src/nri/sdk/index.js';

export interface AnnotationPolicyConfig {
  /** Namespaces whose pods' annotations are taken; "*" for any. None by default. */
  allowedNamespaces?: string[];
  /** Which of the plugin's annotation keys are taken; all of them by default. */
  allowedKeys?: string[];
}

export class AnnotationPolicy {
  private namespaces: Set<string>;
  private keys: Set<string>;

  constructor(private readonly pluginKeys: readonly string[], config: AnnotationPolicyConfig = {}) {
    this.namespaces = new Set(config.allowedNamespaces ?? []);
    this.keys = new Set(config.allowedKeys ?? pluginKeys);
  }

  /** Takes the YAML configuration the runtime sent, or `--config FILE`'s; keeps the current one when neither is set. */
  configure(text: string, argv = process.argv.slice(2)): void {
    let source = text;
    if (!source.trim()) {
      const file = parseArgs({ args: argv, options: { config: { type: 'string' } }, strict: false }).values.config;
      if (typeof file === 'string') source = readFileSync(file, 'utf8');
    }
    if (!source.trim()) return;
    const cfg = (parse(source) ?? {}) as AnnotationPolicyConfig;
    const list = (v: unknown, what: string): string[] | undefined => {
      if (v === undefined) return undefined;
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new Error(`${what}: expected a list of strings`);
      return v as string[];
    };
    this.namespaces = new Set(list(cfg.allowedNamespaces, 'allowedNamespaces') ?? []);
    const keys = list(cfg.allowedKeys, 'allowedKeys');
    const unknown = keys?.filter((k) => !this.pluginKeys.includes(k)) ?? [];
    if (unknown.length) throw new Error(`allowedKeys: ${unknown.join(', ')} not among this plugin's keys (${this.pluginKeys.join(', ')})`);
    this.keys = new Set(keys ?? this.pluginKeys);
  }

  /** The annotation's value for this container, when its pod's namespace and the key are trusted. */
  lookup(pod: nri.PodSandbox, key: string, container: nri.Container): string | undefined {
    if (!this.keys.has(key)) return undefined;
    if (!this.namespaces.has('*') && !this.namespaces.has(pod.namespace)) return undefined;
    return effectiveAnnotation(pod, key, container.name, container);
  }
}
