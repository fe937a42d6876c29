// The protobuf envelopes ttrpc wraps every call in (ttrpc.Request and
// ttrpc.Response with a google.rpc.Status), from the precompiled descriptor.
import type { Type } from 'protobufjs';
import { loadProtoRoot } from '../../api/proto.js';

export interface RequestEnvelope {
  service: string;
  method: string;
  payload: Buffer;
  /** Nanoseconds as a decimal string; "0" means no deadline. */
  timeoutNano: string;
  metadata: { key: string; value: string }[];
}

export interface ResponseEnvelope {
  status: { code: number; message: string } | null;
  payload: Buffer;
}

export interface Envelopes {
  encodeRequest(req: Omit<RequestEnvelope, 'metadata'> & { metadata?: RequestEnvelope['metadata'] }): Uint8Array;
  decodeRequest(bytes: Uint8Array): RequestEnvelope;
  encodeResponse(res: ResponseEnvelope): Uint8Array;
  decodeResponse(bytes: Uint8Array): ResponseEnvelope;
}

let cached: Promise<Envelopes> | undefined;

const TO_OBJECT = { longs: String, bytes: Buffer, defaults: true } as const;

export function loadEnvelopes(): Promise<Envelopes> {
  cached ??= loadProtoRoot('ttrpc').then((root) => {
    const request: Type = root.lookupType('ttrpc.Request');
    const response: Type = root.lookupType('ttrpc.Response');
    return {
      encodeRequest: (req) => request.encode(request.fromObject(req)).finish(),
      decodeRequest: (bytes) => request.toObject(request.decode(bytes), TO_OBJECT) as RequestEnvelope,
      encodeResponse: (res) => response.encode(response.fromObject(res)).finish(),
      decodeResponse: (bytes) => {
        const out = response.toObject(response.decode(bytes), TO_OBJECT) as ResponseEnvelope;
        return { status: out.status ? { code: out.status.code ?? 0, message: out.status.message ?? '' } : null, payload: out.payload };
      },
    };
  });
  return cached;
}
