// Endpoint strings as crictl accepts them, turned into grpc-js targets.
export function grpcTarget(endpoint: string): string {
  const e = endpoint.trim();
  if (!e) throw new Error('empty endpoint');
  if (e.startsWith('unix://')) {
    const path = e.slice('unix://'.length);
    if (!path.startsWith('/')) throw new Error(`endpoint ${endpoint}: unix socket path must be absolute`);
    return `unix://${path}`;
  }
  if (e.startsWith('unix:')) return `unix://${e.slice('unix:'.length)}`;
  if (e.startsWith('/')) return `unix://${e}`;
  if (e.startsWith('tcp://')) return e.slice('tcp://'.length);
  if (/^[\w.-]+:\d+$/.test(e) || /^\[[0-9a-fA-F:]+\]:\d+$/.test(e)) return e;
  throw new Error(`endpoint ${endpoint}: use unix:///path/to.sock or tcp://host:port`);
}

/** The unix socket path of an endpoint, or undefined for tcp. */
export function socketPath(endpoint: string): string | undefined {
  const t = grpcTarget(endpoint);
  return t.startsWith('unix://') ? t.slice('unix://'.length) : undefined;
}
