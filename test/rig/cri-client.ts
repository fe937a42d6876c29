import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const FULL_PROTO = fileURLToPath(new URL('../../proto/runtime/v1/api.proto', import.meta.url));
const SUBSET_PROTO = fileURLToPath(new URL('./cri-v1-subset.proto', import.meta.url));

const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** Loosely typed CRI message (lowerCamelCase fields, int64 as strings, enums as names). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CriMessage = Record<string, any>;
type Message = CriMessage;
type ServiceCtor = new (address: string, creds: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => grpc.Client;

/** A raw CRI v1 client for the rig and its tests; independent of the project's own client code. */
export interface RawCriClient {
  /** Which proto was loaded: the project's full api.proto or the rig's subset. */
  protoSource: 'full' | 'subset';
  runtime(method: string, request?: Message, timeoutMs?: number): Promise<Message>;
  image(method: string, request?: Message, timeoutMs?: number): Promise<Message>;
  close(): void;
}

let cached: { runtime: ServiceCtor; image: ServiceCtor; source: 'full' | 'subset' } | undefined;

function loadServices(): NonNullable<typeof cached> {
  if (cached) return cached;
  const attempts: Array<['full' | 'subset', string]> = [['subset', SUBSET_PROTO]];
  if (existsSync(FULL_PROTO)) attempts.unshift(['full', FULL_PROTO]);
  let lastError: unknown;
  for (const [source, path] of attempts) {
    try {
      const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(path, LOADER_OPTIONS));
      const v1 = (pkg.runtime as grpc.GrpcObject).v1 as grpc.GrpcObject;
      cached = { runtime: v1.RuntimeService as ServiceCtor, image: v1.ImageService as ServiceCtor, source };
      return cached;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Connects to a CRI endpoint such as `unix:///tmp/ist-x/c.sock`. */
export function openCriClient(endpoint: string): RawCriClient {
  const services = loadServices();
  const creds = grpc.credentials.createInsecure();
  const runtime = new services.runtime(endpoint, creds);
  const image = new services.image(endpoint, creds);
  return {
    protoSource: services.source,
    runtime: (method, request = {}, timeoutMs = 30_000) => invoke(runtime, method, request, timeoutMs),
    image: (method, request = {}, timeoutMs = 120_000) => invoke(image, method, request, timeoutMs),
    close: () => {
      runtime.close();
      image.close();
    },
  };
}

function invoke(client: grpc.Client, method: string, request: Message, timeoutMs: number): Promise<Message> {
  const fn = (client as unknown as Record<string, unknown>)[method];
  if (typeof fn !== 'function') return Promise.reject(new Error(`no CRI method ${method}`));
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + timeoutMs);
    fn.call(client, request, { deadline }, (error: grpc.ServiceError | null, response: Message) => {
      if (error) reject(error);
      else resolve(response);
    });
  });
}
