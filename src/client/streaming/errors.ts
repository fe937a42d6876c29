// Errors of the streaming client. A command that ran and exited non-zero is
// not an error (its code is returned); these are failures to run or stream.

export class StreamingError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StreamingError';
  }
}

/** The server answered the upgrade request with something other than 101. */
export class UpgradeRefusedError extends StreamingError {
  constructor(readonly transport: 'spdy' | 'websocket', readonly statusCode: number, readonly body: string) {
    super(`${transport} upgrade refused: HTTP ${statusCode}${body.trim() ? `: ${body.trim()}` : ''}`);
    this.name = 'UpgradeRefusedError';
  }
}

/** The remote side reported a failure other than a non-zero exit code. */
export class RemoteCommandError extends StreamingError {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteCommandError';
  }
}
