// Names shared by the exec/attach/port-forward clients and servers
// (k8s.io/api core/v1 and apimachinery remotecommand).

export const STREAM_CHANNELS = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4 } as const;
export type StreamName = keyof typeof STREAM_CHANNELS;

/** SPDY stream header naming the stream's role; names are lowercase on the SPDY wire. */
export const HEADER_STREAM_TYPE = 'streamtype';
export const HEADER_PORT = 'port';
export const HEADER_REQUEST_ID = 'requestid';

export const STREAM_TYPE = {
  error: 'error',
  stdin: 'stdin',
  stdout: 'stdout',
  stderr: 'stderr',
  resize: 'resize',
  data: 'data',
} as const;

/** HTTP upgrade headers. */
export const HEADER_PROTOCOL_VERSION = 'X-Stream-Protocol-Version';
export const SPDY_UPGRADE = 'SPDY/3.1';

/** SPDY remote command protocol versions, best first. */
export const SPDY_REMOTECOMMAND_PROTOCOLS = [
  'v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io',
] as const;

export const PORTFORWARD_PROTOCOL = 'portforward.k8s.io';

/** WebSocket port-forward subprotocols, best first. */
export const PORTFORWARD_WS_PROTOCOLS = ['v4.channel.k8s.io', 'v4.base64.channel.k8s.io'] as const;

export function spdyProtocolVersion(name: string): 1 | 2 | 3 | 4 | undefined {
  switch (name) {
    case 'v4.channel.k8s.io': return 4;
    case 'v3.channel.k8s.io': return 3;
    case 'v2.channel.k8s.io': return 2;
    case 'channel.k8s.io': return 1;
    default: return undefined;
  }
}
