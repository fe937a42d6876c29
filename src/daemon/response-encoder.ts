// Response encoding for the read RPCs kubelet repeats (PLEG relist every second, probes): their
// answers rarely change between calls, and encoding them (fromObject, then protobufjs's writer,
// interpreted JavaScript under the --lite-mode the daemon then ran with) cost ~0.15 ms per pod in ListPodSandbox.
// So the bytes of each message are kept under its content: the key is the message's JSON
// (JSON.stringify is native code, a few µs), so a changed field is a new key and can never give old
// bytes. A list answer (one repeated message field: items, containers, images) is encoded item by
// item and framed as protobufjs frames a repeated field (tag, length, bytes), so one pod changing
// re-encodes one pod. Entries not used in the last SWEEP_EVERY..2*SWEEP_EVERY answers go.
// A frozen item (the engine's list items, built once per record: containerListItem,
// sandboxListItem) cannot change, so its framed bytes are kept by identity instead, for as long as
// the item lives: no JSON key to build for it.
import type { Field, Type } from 'protobufjs';

const SWEEP_EVERY = 16;

class BytesCache {
  private readonly entries = new Map<string, { bytes: Buffer; used: number }>();
  private answers = 0;

  get(key: string, encode: () => Buffer): Buffer {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { bytes: encode(), used: this.answers };
      this.entries.set(key, entry);
    }
    entry.used = this.answers;
    return entry.bytes;
  }

  /** Called once per answer: forgets what the recent answers did not use. */
  answered(): void {
    this.answers++;
    if (this.answers % SWEEP_EVERY !== 0) return;
    for (const [key, entry] of this.entries) if (entry.used < this.answers - SWEEP_EVERY) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}

const encodeWith = (type: Type) => (obj: object): Buffer => Buffer.from(type.encode(type.fromObject(obj as Record<string, unknown>)).finish());

/** The single repeated message field of a list answer, if `type` is one. */
function listField(type: Type): Field | undefined {
  const fields = type.fieldsArray;
  const only = fields.length === 1 ? fields[0]! : undefined;
  if (!only?.repeated || only.map) return undefined;
  only.resolve();
  const item = only.resolvedType as Type | null;
  return item && 'fieldsArray' in item ? only : undefined;
}

export interface CachingEncoder {
  (obj: object): Buffer;
  /** Entries held (for tests). */
  readonly cached: () => number;
}

/** An encoder for `type` giving the same bytes as protobufjs's fromObject + encode, from a cache when it can. */
export function cachingEncoder(type: Type): CachingEncoder {
  const cache = new BytesCache();
  const field = listField(type);
  let encode: (obj: object) => Buffer;
  if (field) {
    const item = encodeWith(field.resolvedType as Type);
    const tag = varint((field.id << 3) | 2);
    const framed = (bytes: Buffer) => Buffer.concat([tag, varint(bytes.length), bytes]);
    const frozen = new WeakMap<object, Buffer>();
    encode = (obj) => {
      const items = (obj as Record<string, unknown>)[field.name];
      const parts: Buffer[] = [];
      if (Array.isArray(items)) {
        for (const it of items as object[]) {
          if (Object.isFrozen(it)) {
            let bytes = frozen.get(it);
            if (!bytes) frozen.set(it, (bytes = framed(item(it))));
            parts.push(bytes);
          } else {
            parts.push(cache.get(JSON.stringify(it), () => framed(item(it))));
          }
        }
      }
      return Buffer.concat(parts);
    };
  } else {
    const whole = encodeWith(type);
    encode = (obj) => cache.get(JSON.stringify(obj), () => whole(obj));
  }
  return Object.assign(
    (obj: object) => {
      const bytes = encode(obj);
      cache.answered();
      return bytes;
    },
    { cached: () => cache.size },
  );
}
