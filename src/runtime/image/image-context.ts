// The stores one image root is made of, shared by pull, build, archive and the service.
import { join } from 'node:path';
import { BlobStore } from '../store/blob-store.js';
import { withFileLock } from '../store/lock.js';
import { LayerStore } from '../snapshot/layer-store.js';
import { ImageStore } from './image-store.js';
import { SharedWork } from './shared-work.js';

export class ImageContext {
  readonly blobs: BlobStore;
  readonly layers: LayerStore;
  readonly images: ImageStore;
  /** Blob downloads under way in this process, by digest, shared by the pulls that wait for them. */
  readonly downloads = new SharedWork();
  private readonly gcLock: string;
  /** Bytes of blobs pulls downloaded since this context opened (the daemon's metrics). */
  readonly pulled = { bytes: 0 };

  constructor(readonly root: string) {
    this.blobs = new BlobStore(root);
    this.layers = new LayerStore(root);
    this.images = new ImageStore(root);
    this.gcLock = join(root, 'locks', 'gc.lock');
  }

  async init(): Promise<void> {
    await this.blobs.init();
    await this.layers.init();
    await this.images.init();
  }

  /**
   * Work that adds content (pull, build, load) runs under a shared lock that gc takes exclusively;
   * `signal` aborting ends the wait for it (the work itself watches the signal too).
   */
  addingContent<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return withFileLock(this.gcLock, fn, { shared: true, timeoutMs: 600_000, signal });
  }

  collecting<T>(fn: () => Promise<T>, timeoutMs = 600_000): Promise<T> {
    return withFileLock(this.gcLock, fn, { timeoutMs });
  }
}

/** Runs `fn` over `items` with at most `limit` in flight; rejects with the first error after all settle. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let firstError: unknown;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (error) {
        firstError ??= error;
        next = items.length;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (firstError !== undefined) throw firstError;
  return results;
}
