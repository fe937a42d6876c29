// Every method the trace proxy forwards: RuntimeService and ImageService of
// runtime.v1 and runtime.v1alpha2 (paths and streaming flags from our
// descriptors), plus isulats' admin service, so an isulats daemon's extras
// work through the proxy too. grpc-js serves only paths it was given, so a
// method missing here answers UNIMPLEMENTED from the proxy itself.
import { ADMIN_EXTRA_METHODS, ADMIN_SERVICE } from '../client/admin-client.js';
import { CRI_PACKAGES, serviceDefinition, type CriVersion } from '../api/proto.js';

export interface TracedMethod {
  /** `/runtime.v1.RuntimeService/RunPodSandbox` */
  path: string;
  /** `RunPodSandbox` */
  name: string;
  /** `v1`, `v1alpha2` or `admin`. */
  api: CriVersion | 'admin';
  responseStream: boolean;
  /** For the log line only: decodes a request or response (protobuf, or the admin service's JSON). */
  decodeRequest(bytes: Buffer): Record<string, any>;
  decodeResponse(bytes: Buffer): Record<string, any>;
}

const decodeJson = (b: Buffer): Record<string, any> => (b.length ? JSON.parse(b.toString('utf8')) : {});

export function tracedMethods(): TracedMethod[] {
  const out: TracedMethod[] = [];
  for (const api of ['v1', 'v1alpha2'] as const) {
    const descriptor = api === 'v1' ? 'cri-v1' : 'cri-v1alpha2';
    for (const svc of ['RuntimeService', 'ImageService']) {
      const def = serviceDefinition(descriptor, `${CRI_PACKAGES[api]}.${svc}`);
      for (const [name, m] of Object.entries<any>(def)) {
        // Client streaming does not exist in CRI; skip rather than forward it wrongly.
        if (m.requestStream) continue;
        out.push({
          path: m.path, name, api, responseStream: Boolean(m.responseStream),
          decodeRequest: (b) => m.requestDeserialize(b), decodeResponse: (b) => m.responseDeserialize(b),
        });
      }
    }
  }
  for (const name of ['Info', ...Object.values(ADMIN_EXTRA_METHODS)]) {
    out.push({ path: `/${ADMIN_SERVICE}/${name}`, name, api: 'admin', responseStream: false, decodeRequest: decodeJson, decodeResponse: decodeJson });
  }
  return out;
}
