// Layer decompression by content sniffing (media types lie often enough):
// gzip through zlib, zstd through the system's `zstd -dc` as a streaming child
// process (Node 20's zlib has no zstd; the Debian binary is fast, streaming
// and maintained, unlike pure-JS decoders), anything else passes through.
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { internal } from '../errors.js';

export type Compression = 'gzip' | 'zstd' | 'none';

export function sniffCompression(head: Buffer): Compression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head.readUInt32LE(0) === 0xfd2fb528) return 'zstd';
  return 'none';
}

export function fileCompression(path: string): Compression {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const n = readSync(fd, head, 0, 4, 0);
    return sniffCompression(head.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/** The uncompressed bytes of a blob file, streamed. */
export async function* decompressFile(path: string): AsyncGenerator<Buffer> {
  const kind = fileCompression(path);
  const input = createReadStream(path, { highWaterMark: 1 << 20 });
  if (kind === 'none') {
    yield* input as AsyncIterable<Buffer>;
    return;
  }
  if (kind === 'gzip') {
    const gunzip = createGunzip({ chunkSize: 1 << 17 });
    input.on('error', (e) => gunzip.destroy(e));
    input.pipe(gunzip);
    try {
      yield* gunzip as AsyncIterable<Buffer>;
    } finally {
      input.destroy();
      gunzip.destroy();
    }
    return;
  }
  yield* zstdDecompress(input);
}

async function* zstdDecompress(input: NodeJS.ReadableStream & { destroy(): void }): AsyncGenerator<Buffer> {
  const child = spawn('zstd', ['-d', '-c', '-q'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: Buffer[] = [];
  child.stderr.on('data', (b: Buffer) => stderr.push(b));
  const exited = new Promise<number>((resolve, reject) => {
    child.on('error', (e) => reject(internal('cannot run zstd to decompress a zstd layer (install the zstd package)', e)));
    child.on('close', (code) => resolve(code ?? 1));
  });
  exited.catch(() => undefined);
  child.stdin.on('error', () => undefined);
  input.pipe(child.stdin);
  let finished = false;
  try {
    yield* child.stdout as AsyncIterable<Buffer>;
    const code = await exited;
    if (code !== 0) throw internal(`zstd failed to decompress a layer: ${Buffer.concat(stderr).toString().trim()}`);
    finished = true;
  } finally {
    input.destroy();
    if (!finished && child.exitCode === null && child.pid) child.kill('SIGKILL');
  }
}
