// Launches a pre-installed plugin with a pre-connected socket: fd 3 of the
// child is one end of a unix socketpair (Node creates one for a 'pipe' stdio
// slot), announced as NRI_PLUGIN_SOCKET=3 with the plugin's name and index.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { PLUGIN_IDX_ENV, PLUGIN_NAME_ENV, PLUGIN_SOCKET_ENV } from '../protocol.js';
import type { DiscoveredPlugin } from './discovery.js';

export interface Launched {
  child: ChildProcess;
  socket: Duplex;
}

export function launchPlugin(plugin: DiscoveredPlugin, output: 'ignore' | 'inherit' = 'ignore'): Promise<Launched> {
  return new Promise((resolve, reject) => {
    const child = spawn(plugin.path, [], {
      stdio: ['ignore', output, output, 'pipe'],
      // Only what a plugin needs, as upstream does, plus PATH so that scripts
      // with an `#!/usr/bin/env` line start.
      env: {
        [PLUGIN_NAME_ENV]: plugin.name,
        [PLUGIN_IDX_ENV]: plugin.idx,
        [PLUGIN_SOCKET_ENV]: '3',
        PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      },
    });
    const fail = (err: Error) => reject(new Error(`failed to launch plugin ${plugin.idx}-${plugin.name}: ${err.message}`));
    child.once('error', fail);
    child.once('spawn', () => {
      child.off('error', fail);
      child.on('error', () => undefined);
      const socket = child.stdio[3] as Duplex | null;
      if (!socket) {
        child.kill('SIGKILL');
        fail(new Error('no socket for fd 3'));
        return;
      }
      resolve({ child, socket });
    });
  });
}
