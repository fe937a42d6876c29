// A registry that misbehaves on purpose, on loopback over plain http (docker's rule lets a
// loopback registry be reached so). Each repository is one misbehaviour; every image has a valid
// config and a one-file layer, and only the part the repository is named for goes wrong:
//
//   ok             a valid image (the control)
//   endless        the layer's body never ends (its descriptor has the real size)
//   trickle        the layer sends one byte every `trickleMs`, forever
//   stall          the layer sends its headers and a few bytes, then nothing
//   cut            the layer's connection is closed after half its body, every time
//   no-size        the layer's descriptor has no size (and its body never ends)
//   huge-size      the layer's descriptor says size 1e300 (and its body never ends)
//   wrong-digest   the layer's body has the declared size but other bytes
//   redirect-loop  the layer's URL redirects to itself, forever
//   huge-manifest  the manifest is 50 MB of JSON whitespace and more
//
// It counts what tests check afterwards: requests by path, open connections, bytes sent per
// repository; `stop()` closes every connection and the server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { sha256Digest } from '../../src/runtime/image/digest.js';
import { MEDIA } from '../../src/runtime/image/manifest.js';
import { tarStream } from '../../src/runtime/image/tar-writer.js';

export const HOSTILE_CASES = ['ok', 'endless', 'trickle', 'stall', 'cut', 'no-size', 'huge-size', 'wrong-digest', 'redirect-loop', 'huge-manifest'] as const;
export type HostileCase = (typeof HOSTILE_CASES)[number];

export const HUGE_MANIFEST_BYTES = 50 << 20;
/** The size the trickle layer's descriptor declares: room for a long trickle. */
export const TRICKLE_DECLARED_SIZE = 1 << 20;

export interface HostileRegistryOptions {
  /** Pause between the trickle's bytes (default 1000 ms). */
  trickleMs?: number;
}

export interface HostileRegistry {
  /** `127.0.0.1:port`: images are `${host}/<case>:latest`. */
  host: string;
  image(c: HostileCase): string;
  /** The layer blob's digest in the manifest of `c`. */
  layerDigest(c: HostileCase): string;
  /** Every request, in arrival order: "GET /v2/...". */
  requests: string[];
  /** Requests for the layer blob of `c` (redirect hops included). */
  layerRequests(c: HostileCase): number;
  /** Connections open now (the server's end). */
  openConnections(): number;
  /** Layer responses of `c` still being sent (their connection open). */
  activeLayerResponses(c: HostileCase): number;
  /** Body bytes written so far for `c` (manifest and blobs). */
  bytesSent(c: HostileCase): number;
  stop(): Promise<void>;
}

interface Image {
  manifest: Buffer;
  config: Buffer;
  layer: Buffer;
  layerDigest: string;
}

async function tarOf(name: string, data: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const b of tarStream([{ name, type: 'file', data }])) parts.push(b);
  return Buffer.concat(parts);
}

async function buildImage(c: HostileCase): Promise<Image> {
  const tar = await tarOf('hostile.txt', `${c}\n`);
  const layer = gzipSync(tar);
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', config: { Cmd: ['/bin/sh'] }, rootfs: { type: 'layers', diff_ids: [sha256Digest(tar)] } }));
  // wrong-digest: the descriptor names other content of the same size.
  const layerDigest = c === 'wrong-digest' ? sha256Digest(Buffer.concat([layer.subarray(0, -1), Buffer.from([layer[layer.length - 1]! ^ 1])])) : sha256Digest(layer);
  const layerDesc: Record<string, unknown> = { mediaType: MEDIA.dockerLayerGzip, digest: layerDigest, size: layer.length };
  if (c === 'no-size') delete layerDesc.size;
  if (c === 'huge-size') layerDesc.size = 1e300;
  if (c === 'trickle') layerDesc.size = TRICKLE_DECLARED_SIZE;
  const manifest = Buffer.from(JSON.stringify({
    schemaVersion: 2,
    mediaType: MEDIA.dockerManifest,
    config: { mediaType: MEDIA.dockerConfig, digest: sha256Digest(config), size: config.length },
    layers: [layerDesc],
  }));
  return { manifest, config, layer, layerDigest };
}

export async function startHostileRegistry(opts: HostileRegistryOptions = {}): Promise<HostileRegistry> {
  const trickleMs = opts.trickleMs ?? 1000;
  const images = new Map<HostileCase, Image>();
  for (const c of HOSTILE_CASES) images.set(c, await buildImage(c));
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const sent = new Map<HostileCase, number>();
  const layerHits = new Map<HostileCase, number>();
  const activeLayers = new Map<HostileCase, number>();
  const timers = new Set<NodeJS.Timeout>();

  const count = (c: HostileCase, n: number) => sent.set(c, (sent.get(c) ?? 0) + n);
  /** Writes `chunk` again and again, waiting for the reader, until the connection closes. */
  const endless = (c: HostileCase, res: ServerResponse, chunk: Buffer) => {
    const more = () => {
      while (!res.destroyed) {
        count(c, chunk.length);
        if (!res.write(chunk)) return void res.once('drain', more);
      }
    };
    more();
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    requests.push(`${req.method} ${req.url}`);
    if (path === '/v2/' || path === '/v2') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    const m = /^\/v2\/([a-z-]+)\/(manifests|blobs)\/(.+)$/.exec(path);
    const c = m?.[1] as HostileCase | undefined;
    const image = c && images.get(c);
    if (!m || !c || !image) return void res.writeHead(404).end('{"errors":[{"code":"NAME_UNKNOWN"}]}');
    if (m[2] === 'manifests') {
      if (c === 'huge-manifest') {
        // No Content-Length: only reading stops it. Valid JSON if read whole (a manifest padded with spaces).
        res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest });
        const pad = Buffer.alloc(1 << 16, 0x20);
        let written = 0;
        const more = () => {
          while (!res.destroyed && written < HUGE_MANIFEST_BYTES) {
            written += pad.length;
            count(c, pad.length);
            if (!res.write(pad)) return void res.once('drain', more);
          }
          if (!res.destroyed) res.end(image.manifest);
        };
        return void more();
      }
      count(c, image.manifest.length);
      return void res.writeHead(200, { 'Content-Type': MEDIA.dockerManifest, 'Content-Length': image.manifest.length }).end(image.manifest);
    }
    const digest = m[3]!;
    if (digest === sha256Digest(image.config)) {
      count(c, image.config.length);
      return void res.writeHead(200, { 'Content-Length': image.config.length }).end(image.config);
    }
    if (digest !== image.layerDigest) return void res.writeHead(404).end('{"errors":[{"code":"BLOB_UNKNOWN"}]}');
    layerHits.set(c, (layerHits.get(c) ?? 0) + 1);
    activeLayers.set(c, (activeLayers.get(c) ?? 0) + 1);
    res.on('close', () => activeLayers.set(c, (activeLayers.get(c) ?? 1) - 1));
    switch (c) {
      case 'endless':
      case 'no-size':
      case 'huge-size':
        res.writeHead(200);
        return endless(c, res, Buffer.alloc(1 << 16, 0x61));
      case 'trickle':
      case 'stall': {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
        res.flushHeaders();
        const step = () => {
          if (res.destroyed) return;
          count(c, 1);
          res.write(image.layer.subarray(0, 1));
          if (c === 'trickle') later(step, trickleMs);
        };
        return step();
      }
      case 'cut':
        res.writeHead(200, { 'Content-Length': image.layer.length });
        count(c, image.layer.length >> 1);
        return void res.write(image.layer.subarray(0, image.layer.length >> 1), () => res.socket?.destroy());
      case 'redirect-loop':
        return void res.writeHead(307, { Location: `${path}?hop=${layerHits.get(c)}` }).end();
      default:
        count(c, image.layer.length);
        return void res.writeHead(200, { 'Content-Length': image.layer.length }).end(image.layer);
    }
  });
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  // The pull asks a loopback registry over TLS first: a plain server answers the handshake 400.
  server.on('clientError', (_error, socket: Socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    image: (c) => `${host}/${c}:latest`,
    layerDigest: (c) => images.get(c)!.layerDigest,
    requests,
    layerRequests: (c) => layerHits.get(c) ?? 0,
    openConnections: () => sockets.size,
    activeLayerResponses: (c) => activeLayers.get(c) ?? 0,
    bytesSent: (c) => sent.get(c) ?? 0,
    stop: async () => {
      for (const t of timers) clearTimeout(t);
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
