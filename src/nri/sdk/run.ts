// Entry point helper for plugin executables: works both when the runtime
// launches the plugin (NRI_PLUGIN_SOCKET, NRI_PLUGIN_NAME, NRI_PLUGIN_IDX) and
// when it is started by hand (--socket PATH --name NAME --idx NN).
import { parseArgs } from 'node:util';
import { PLUGIN_IDX_ENV, PLUGIN_NAME_ENV } from '../protocol.js';
import { Stub, type Plugin } from './stub.js';

export async function runPlugin(plugin: Plugin, defaults: { name: string; idx: string }, argv = process.argv.slice(2)): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { socket: { type: 'string' }, name: { type: 'string' }, idx: { type: 'string' } },
    strict: false,
  });
  const stub = new Stub(plugin, {
    name: (values.name as string | undefined) ?? process.env[PLUGIN_NAME_ENV] ?? defaults.name,
    idx: (values.idx as string | undefined) ?? process.env[PLUGIN_IDX_ENV] ?? defaults.idx,
    socketPath: values.socket as string | undefined,
  });
  const stopOn = (sig: NodeJS.Signals) => process.once(sig, () => stub.stop());
  stopOn('SIGINT');
  stopOn('SIGTERM');
  try {
    await stub.run();
  } catch (err) {
    stub.log('error', (err as Error).message);
    process.exitCode = 1;
  }
}

/** True when the module is the program being run (also after bundling to a single file). */
export function isMain(importMetaUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  return importMetaUrl === new URL(`file://${script.startsWith('/') ? script : `${process.cwd()}/${script}`}`).href;
}
