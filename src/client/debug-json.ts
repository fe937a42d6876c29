// What `-D` prints of each CRI request and response, as crictl -D does: the message as JSON.
/** AuthConfig's secrets: a debug log is pasted into issues, so they never reach it. */
const SECRET_FIELDS = new Set(['password', 'auth', 'identityToken', 'registryToken']);

/** A message as one line of JSON: int64 strings as they are, bytes as base64 (protobuf's JSON form). */
export function debugJson(message: unknown): string {
  return JSON.stringify(message, (key, value) => {
    if (SECRET_FIELDS.has(key) && typeof value === 'string' && value) return '<redacted>';
    return value && typeof value === 'object' && value.type === 'Buffer' && Array.isArray(value.data) ? Buffer.from(value.data).toString('base64') : value;
  });
}
