// The NRI engine tests' shared set-up: a plugin dir of pre-installed plugins (IDX-NAME wrappers
// that run a bundled plugin with this Node), and the fixture's engine reopened with NRI options.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NriEngineOptions } from '../../src/runtime/config/engine-config.js';
import type { Engine } from '../../src/runtime/engine.js';
import type { RuntimeFixture } from './runtime-fixture.js';

/** A new plugin dir under `parent` with an executable IDX-NAME wrapper for each bundle in `bundles`. */
export function nriPluginDir(parent: string, bundles: string, plugins: Record<string, string>): string {
  const dir = mkdtempSync(join(parent, 'plugins-'));
  for (const [name, bundle] of Object.entries(plugins)) {
    writeFileSync(join(dir, name), `#!/bin/sh\nexec "${process.execPath}" "${join(bundles, `${bundle}.mjs`)}"\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/**
 * The fixture's engine reopened with `nri` over the given defaults (no plugin config dir), its
 * warnings collected; the fixture's own options are put back afterwards.
 */
export async function reopenWithNri(
  fx: RuntimeFixture,
  defaults: Pick<NriEngineOptions, 'registrationTimeoutMs' | 'requestTimeoutMs'>,
  nri: NriEngineOptions,
): Promise<{ engine: Engine; warnings: string[] }> {
  const warnings: string[] = [];
  const saved = { nri: fx.options.nri, warn: fx.options.warn };
  fx.options.nri = { pluginConfigDir: join(fx.dir, 'no-conf'), ...defaults, ...nri };
  fx.options.warn = (m) => warnings.push(m);
  try {
    return { engine: await fx.reopen(), warnings };
  } finally {
    fx.options.nri = saved.nri;
    fx.options.warn = saved.warn;
  }
}
