// The few CRI runtime.v1 messages the fast path sends and reads, in protobuf
// wire format by hand, decoded to the shapes the full CLI's remote backend
// gives (src/api/cri.ts: defaults filled, int64 as decimal strings, enums as
// names), so both paths render from the same values. Field numbers are those
// of proto/runtime/v1/api.proto.
import type * as cri from '../api/cri.js';

type Fields = Map<number, (Buffer | bigint)[]>;

/** Splits a message into its fields: varints as bigint, length-delimited as Buffer; undefined if malformed. */
export function readFields(buf: Buffer): Fields | undefined {
  const out: Fields = new Map();
  let i = 0;
  const varint = (): bigint | undefined => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length || shift > 63n) return undefined;
      const b = buf[i++];
      v |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if (!(b & 0x80)) return v;
    }
  };
  while (i < buf.length) {
    const key = varint();
    if (key === undefined) return undefined;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    let value: Buffer | bigint;
    if (wire === 0) {
      const v = varint();
      if (v === undefined) return undefined;
      value = v;
    } else if (wire === 2) {
      const len = varint();
      if (len === undefined || i + Number(len) > buf.length) return undefined;
      value = buf.subarray(i, i + Number(len));
      i += Number(len);
    } else if (wire === 1 || wire === 5) {
      i += wire === 1 ? 8 : 4; // no such field in these messages: skipped
      continue;
    } else {
      return undefined;
    }
    const list = out.get(field);
    if (list) list.push(value);
    else out.set(field, [value]);
  }
  return out;
}

const last = (f: Fields, n: number) => f.get(n)?.at(-1);
const str = (f: Fields, n: number): string => {
  const v = last(f, n);
  return Buffer.isBuffer(v) ? v.toString('utf8') : '';
};
const int64 = (f: Fields, n: number): string => {
  const v = last(f, n);
  return typeof v === 'bigint' ? BigInt.asIntN(64, v).toString() : '0';
};
const uint32 = (f: Fields, n: number): number => {
  const v = last(f, n);
  return typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : 0;
};
const enumName = (f: Fields, n: number, names: string[]): string | number => {
  const v = last(f, n);
  const i = typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : 0;
  return names[i] ?? i;
};
const sub = (f: Fields, n: number): Fields | undefined => {
  const v = last(f, n);
  return Buffer.isBuffer(v) ? readFields(v) : undefined;
};
const map = (f: Fields, n: number): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const e of f.get(n) ?? []) {
    const kv = Buffer.isBuffer(e) ? readFields(e) : undefined;
    if (kv) out[str(kv, 1)] = str(kv, 2);
  }
  return out;
};
const messages = (f: Fields, n: number): Fields[] => (f.get(n) ?? []).map((b) => (Buffer.isBuffer(b) ? readFields(b) : undefined)).filter((x): x is Fields => x !== undefined);

const POD_STATES = ['SANDBOX_READY', 'SANDBOX_NOTREADY'];
const CONTAINER_STATES = ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'];

export function decodeVersion(buf: Buffer): cri.VersionResponse | undefined {
  const f = readFields(buf);
  return f && { version: str(f, 1), runtimeName: str(f, 2), runtimeVersion: str(f, 3), runtimeApiVersion: str(f, 4) };
}

export function decodePods(buf: Buffer): cri.PodSandbox[] | undefined {
  const f = readFields(buf);
  return f && messages(f, 1).map((p) => {
    const m = sub(p, 2);
    return {
      id: str(p, 1),
      metadata: m ? { name: str(m, 1), uid: str(m, 2), namespace: str(m, 3), attempt: uint32(m, 4) } : null,
      state: enumName(p, 3, POD_STATES),
      createdAt: int64(p, 4),
      labels: map(p, 5),
      annotations: map(p, 6),
      runtimeHandler: str(p, 7),
    } as unknown as cri.PodSandbox;
  });
}

export function decodeContainers(buf: Buffer): cri.Container[] | undefined {
  const f = readFields(buf);
  return f && messages(f, 1).map((c) => {
    const m = sub(c, 3);
    const img = sub(c, 4);
    return {
      id: str(c, 1),
      podSandboxId: str(c, 2),
      metadata: m ? { name: str(m, 1), attempt: uint32(m, 2) } : null,
      image: img ? { image: str(img, 1), annotations: map(img, 2), userSpecifiedImage: str(img, 18), runtimeHandler: str(img, 19), imageRef: str(img, 20) } : null,
      imageRef: str(c, 5),
      state: enumName(c, 6, CONTAINER_STATES),
      createdAt: int64(c, 7),
      labels: map(c, 8),
      annotations: map(c, 9),
      imageId: str(c, 10),
    } as unknown as cri.Container;
  });
}

/** VersionRequest{version: "v1"}, as the full CLI sends it. */
export const VERSION_REQUEST = Buffer.from([0x0a, 0x02, 0x76, 0x31]);
/** ListPodSandboxRequest{filter: {}}. */
export const LIST_PODS_REQUEST = Buffer.from([0x0a, 0x00]);
/** ListContainersRequest{filter: {}} or, without -a, {filter: {state: {state: CONTAINER_RUNNING}}}. */
export const listContainersRequest = (all: boolean) => (all ? Buffer.from([0x0a, 0x00]) : Buffer.from([0x0a, 0x04, 0x12, 0x02, 0x08, 0x01]));
