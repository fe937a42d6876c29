// Pre-installed plugins: executables named IDX-NAME in the plugin directory,
// each with an optional configuration drop-in IDX-NAME.conf or NAME.conf.
import { constants as fsConstants } from 'node:fs';
import { access, readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

export interface DiscoveredPlugin {
  idx: string;
  name: string;
  path: string;
  config: string;
}

/** Splits "10-logger" into ["10", "logger"]; throws for other shapes. */
export function parsePluginName(file: string): [string, string] {
  const m = /^([0-9]{2})-(.+)$/.exec(file);
  if (!m) throw new Error(`invalid plugin name ${JSON.stringify(file)}, idx-pluginname expected`);
  return [m[1], m[2]];
}

async function readConfig(configDir: string | undefined, idx: string, name: string): Promise<string> {
  if (!configDir) return '';
  for (const file of [`${idx}-${name}.conf`, `${name}.conf`]) {
    try {
      return await readFile(join(configDir, file), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`failed to read configuration for plugin ${idx}-${name}: ${(err as Error).message}`);
    }
  }
  return '';
}

export async function discoverPlugins(pluginDir: string, configDir?: string, warn?: (msg: string) => void): Promise<DiscoveredPlugin[]> {
  let entries: string[];
  try {
    entries = await readdir(pluginDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new Error(`failed to discover plugins in ${pluginDir}: ${(err as Error).message}`);
  }
  const found: DiscoveredPlugin[] = [];
  for (const file of entries.sort()) {
    const path = join(pluginDir, file);
    const st = await stat(path).catch(() => undefined);
    if (!st || st.isDirectory()) continue;
    if (!(await access(path, fsConstants.X_OK).then(() => true, () => false))) continue;
    let idx: string;
    let name: string;
    try {
      [idx, name] = parsePluginName(file);
    } catch (err) {
      warn?.(`skipping ${path}: ${(err as Error).message}`);
      continue;
    }
    found.push({ idx, name, path, config: await readConfig(configDir, idx, name) });
  }
  return found;
}
