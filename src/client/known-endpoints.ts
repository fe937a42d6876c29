// The CRI sockets a call with no endpoint named tries, in order, and the note
// that names the one that answered. A leaf module (no imports): the fast path
// (src/fast/) probes the same list in the same order.
export const DEFAULT_DAEMON_SOCKET = '/var/run/isulats/isulats.sock';

/**
 * The sockets tried, in order, when nothing names an endpoint. Our own daemon
 * comes first: whoever runs `isulats daemon` on a node means this CLI to use
 * it, and only it serves the isula verbs (tag, load, save, ...) remotely. Then
 * crictl 1.34's list (containerd, CRI-O, cri-dockerd), with iSulad before
 * cri-dockerd, whose dockershim is the last resort crictl gives it too.
 */
export const KNOWN_FOREIGN_ENDPOINTS = [
  'unix:///run/containerd/containerd.sock',
  'unix:///run/crio/crio.sock',
  'unix:///var/run/isulad.sock',
  'unix:///var/run/cri-dockerd.sock',
];

/** The word that names the embedded engine where an endpoint goes (-r, the env, the config file). */
export const EMBEDDED_ENDPOINT = 'embedded';

/** A socket path or unix:// URL as an endpoint URL. */
export function asEndpoint(socketOrUrl: string): string {
  return socketOrUrl.startsWith('/') ? `unix://${socketOrUrl}` : socketOrUrl;
}

/**
 * The endpoints probed, in order: our daemon, then the foreign runtimes'.
 * ISULATS_KNOWN_ENDPOINTS (comma-separated, may be empty) replaces the foreign
 * list: it exists for tests, which must never reach a node's real runtime.
 */
export function knownEndpoints(env: NodeJS.ProcessEnv, daemonSocket?: string): { endpoint: string; daemon: boolean }[] {
  const daemon = asEndpoint(daemonSocket || env.ISULATS_DAEMON_SOCKET || DEFAULT_DAEMON_SOCKET);
  const foreign = env.ISULATS_KNOWN_ENDPOINTS !== undefined
    ? env.ISULATS_KNOWN_ENDPOINTS.split(',').map((s) => s.trim()).filter(Boolean)
    : KNOWN_FOREIGN_ENDPOINTS;
  return [{ endpoint: daemon, daemon: true }, ...foreign.filter((e) => e !== daemon).map((endpoint) => ({ endpoint, daemon: false }))];
}

/** The line on stderr for an endpoint found by probing, as crictl warns when it uses its defaults. */
export function probedNote(endpoint: string): string {
  return `isulats: using runtime endpoint ${endpoint}, the first known CRI socket that answered; set --runtime-endpoint (or runtime-endpoint in the config file) to choose`;
}
