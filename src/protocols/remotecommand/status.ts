// The error stream of exec/attach. From v4 on it carries a JSON metav1.Status:
// Success, or Failure whose reason NonZeroExitCode has a cause of reason
// ExitCode with the code as its message. Older protocols carry only a message.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface K8sStatus {
  kind?: string;
  apiVersion?: string;
  metadata?: Record<string, unknown>;
  status?: 'Success' | 'Failure' | string;
  message?: string;
  reason?: string;
  details?: { causes?: StatusCause[] };
  code?: number;
}

export const REASON_NON_ZERO_EXIT_CODE = 'NonZeroExitCode';
export const CAUSE_EXIT_CODE = 'ExitCode';

export type CommandOutcome = { exitCode: number } | { error: string };

export function successStatus(): K8sStatus {
  return { metadata: {}, status: 'Success' };
}

export function exitCodeStatus(exitCode: number, message = `command terminated with non-zero exit code: exit status ${exitCode}`): K8sStatus {
  return {
    metadata: {},
    status: 'Failure',
    message,
    reason: REASON_NON_ZERO_EXIT_CODE,
    details: { causes: [{ reason: CAUSE_EXIT_CODE, message: String(exitCode) }] },
  };
}

export function failureStatus(message: string): K8sStatus {
  return { metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 };
}

/** Reads what the server wrote on the error stream before closing it. */
export function interpretErrorStream(bytes: Buffer, format: 'json' | 'text'): CommandOutcome {
  const text = bytes.toString('utf8');
  if (text.trim() === '') return { exitCode: 0 };
  if (format === 'text') {
    // Pre-v4 servers only send a message; keep the exit code when it names one.
    const m = /exit (?:code|status) (\d+)/.exec(text);
    return m ? { exitCode: Number(m[1]) } : { error: text.trim() };
  }
  let status: K8sStatus;
  try {
    status = JSON.parse(text) as K8sStatus;
  } catch {
    return { error: `error stream protocol error: ${text.trim()}` };
  }
  if (status.status === 'Success') return { exitCode: 0 };
  if (status.reason === REASON_NON_ZERO_EXIT_CODE) {
    for (const cause of status.details?.causes ?? []) {
      if (cause.reason !== CAUSE_EXIT_CODE) continue;
      const code = Number.parseInt(cause.message ?? '', 10);
      if (Number.isInteger(code)) return { exitCode: code };
      return { error: `error stream protocol error: invalid exit code value ${JSON.stringify(cause.message)}` };
    }
    return { error: 'error stream protocol error: no exit code in NonZeroExitCode status' };
  }
  return { error: status.message || `remote command failed: ${status.reason ?? 'unknown reason'}` };
}
