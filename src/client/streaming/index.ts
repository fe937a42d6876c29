export { runRemoteCommand, transportOrder } from './remote-command.js';
export { startPortForward, type PortMapping, type PortForwardOptions, type PortForwardSession, type ForwardedPort } from './port-forward.js';
export { setupTerminal, enterRawMode, watchTerminalSize, terminalSize, type TerminalSession, type TerminalOptions, type TtyIn, type TtyOut, type ProcessLike } from './terminal.js';
export { StreamingError, UpgradeRefusedError, RemoteCommandError } from './errors.js';
export type { RemoteCommandOptions, RemoteCommandResult, StreamingTransport } from './types.js';
export { upgradeToSpdy } from './spdy-upgrade.js';
