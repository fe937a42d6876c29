// The runtime answers Version: who it is and which CRI API it speaks.
import { fail, ok, type CheckResult } from '../check-result.js';

export interface EndpointFacts {
  target: string;
  version?: { runtimeName: string; runtimeVersion: string; runtimeApiVersion: string };
  api?: string;
  error?: string;
}

export function evaluateEndpoint(f: EndpointFacts): CheckResult[] {
  const title = 'runtime endpoint';
  if (f.error || !f.version) {
    return [fail('endpoint', title, `${f.target}: ${f.error ?? 'no answer'}`, endpointFix(f))];
  }
  const v = f.version;
  return [ok('endpoint', title, `${f.target}: ${v.runtimeName} ${v.runtimeVersion}, CRI ${f.api ?? v.runtimeApiVersion}`)];
}

/** The runtime is up but this user may not connect: starting it again would not help. */
function endpointFix(f: EndpointFacts): string {
  if (/permission denied|\bEACCES\b/i.test(f.error ?? '')) {
    return `run as root, or as a user allowed to write to the socket (its group: ls -l ${f.target.replace(/^unix:(\/\/)?/, '')})`;
  }
  if (/needs root/.test(f.error ?? '')) return 'run as root (sudo isulats doctor), or point --runtime-endpoint at a CRI socket this user may write to';
  return 'start the runtime, or point --runtime-endpoint (or CONTAINER_RUNTIME_ENDPOINT) at its socket';
}
