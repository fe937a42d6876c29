// What a command's run() receives: parsed flags and args, the global options,
// and a lazily opened backend (so `--help`-like paths never connect).
import type { CriBackend } from '../client/backend.js';
import type { ClientConfig } from '../client/config-file.js';
import type { CommandInfo } from './command-info.js';
import { parseDuration } from './duration.js';

export interface GlobalOptions {
  runtimeEndpoint?: string;
  imageEndpoint?: string;
  timeoutMs: number;
  debug: boolean;
  configPath?: string;
  root?: string;
  state?: string;
  registryConfigDir?: string;
  /** --embedded: the in-process engine, whatever sockets answer. */
  embedded?: boolean;
}

export interface CommandContext {
  id: string;
  flags: Record<string, any>;
  args: Record<string, any>;
  /** Positional arguments beyond the declared ones (non-strict commands), and pass-through argv. */
  argv: string[];
  globals: GlobalOptions;
  config(): Promise<ClientConfig>;
  backend(): Promise<CriBackend>;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  print(text: string): void;
  debug(msg: string): void;
  /** Closes the backend if one was opened. */
  close(): Promise<void>;
  /** Prints oclif's help for a command or topic (from the dispatcher). */
  help(topic: string[]): Promise<void>;
  /** Every command with its aliases and flags (from the dispatcher; loads every command). */
  describeCommands(): Promise<CommandInfo[]>;
}

/**
 * What the dispatcher lends commands. Passed in rather than imported: the
 * registry loads every command, so a command importing it (or oclif's help,
 * which imports it) would import itself back.
 */
export interface DispatcherServices {
  help(topic: string[]): Promise<void>;
  describeCommands(): Promise<CommandInfo[]>;
}

const NO_DISPATCHER: DispatcherServices = {
  help: () => Promise.reject(new Error('help needs the isulats dispatcher')),
  describeCommands: () => Promise.reject(new Error('the command list needs the isulats dispatcher')),
};

export const DEFAULT_TIMEOUT_MS = 2000;

const positiveOr = (ms: number, fallback: number) => (ms > 0 ? ms : fallback);

export function makeContext(
  id: string,
  parsed: { flags: Record<string, any>; args: Record<string, any>; argv: string[] },
  dispatcher: DispatcherServices = NO_DISPATCHER,
): CommandContext {
  const f = parsed.flags;
  let configCache: Promise<ClientConfig> | undefined;
  let backendCache: Promise<CriBackend> | undefined;
  const globals: GlobalOptions = {
    runtimeEndpoint: f['runtime-endpoint'],
    imageEndpoint: f['image-endpoint'],
    // crictl's getTimeout: a timeout of 0 (or less) means the default, not an instant deadline.
    timeoutMs: f['global-timeout'] !== undefined ? positiveOr(parseDuration(f['global-timeout']), DEFAULT_TIMEOUT_MS) : -1,
    debug: Boolean(f.debug),
    configPath: f.config,
    root: f.root,
    state: f['engine-state'],
    registryConfigDir: f['registry-config-dir'],
    embedded: Boolean(f.embedded),
  };
  const debug = (msg: string) => {
    if (globals.debug) process.stderr.write(`DEBU ${msg}\n`);
  };
  const config = () => {
    configCache ??= (async () => {
      const { configPath, readClientConfig } = await import('../client/config-file.js');
      const where = configPath(globals.configPath);
      const cfg = await readClientConfig(where.path, where.explicit);
      if (globals.timeoutMs < 0) globals.timeoutMs = cfg.timeout ? cfg.timeout * 1000 : DEFAULT_TIMEOUT_MS;
      if (cfg.debug && !f.debug) globals.debug = true;
      return cfg;
    })();
    return configCache;
  };
  const backend = () => {
    backendCache ??= (async () => {
      const cfg = await config();
      const [{ chooseBackend, choiceNote, openBackend }, { isReadOnlyVerb }] = await Promise.all([import('../client/resolve.js'), import('./read-only-verbs.js')]);
      const choice = await chooseBackend({
        runtimeEndpointFlag: globals.runtimeEndpoint,
        imageEndpointFlag: globals.imageEndpoint,
        embeddedFlag: globals.embedded,
        config: cfg,
        root: globals.root,
        state: globals.state,
        probeTimeoutMs: globals.timeoutMs,
      });
      for (const t of choice.tried ?? []) debug(`probe ${t.endpoint}: ${t.reason}`);
      debug(`backend: ${choice.source}${choice.runtimeEndpoint ? ` ${choice.runtimeEndpoint}` : ''}`);
      const readOnly = isReadOnlyVerb(id);
      const note = choiceNote(choice, !readOnly);
      if (note) process.stderr.write(`${note}\n`);
      return openBackend(choice, { timeoutMs: globals.timeoutMs, root: globals.root, state: globals.state, registryConfigDir: globals.registryConfigDir, debug, readOnly });
    })();
    return backendCache;
  };
  return {
    id,
    flags: f,
    args: parsed.args,
    argv: parsed.argv,
    globals,
    config,
    backend,
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    print: (text: string) => {
      process.stdout.write(text);
    },
    debug,
    close: async () => {
      if (backendCache) await (await backendCache.catch(() => undefined))?.close();
    },
    help: dispatcher.help,
    describeCommands: dispatcher.describeCommands,
  };
}

