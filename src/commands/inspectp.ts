import { inspectCommand } from '../cli/inspect-command.js';
import { goTimeString, mapSection } from '../cli/filters.js';
import { resolvePodId } from '../cli/resolve-id.js';
import { goMapString, podStatusDoc } from '../cli/status-output.js';
import type * as cri from '../api/cri.js';

export default inspectCommand<cri.PodSandboxStatusResponse>({
  verb: 'inspectp',
  summary: 'Display the status of one or more pods',
  idName: 'POD-ID',
  resolve: resolvePodId,
  status: (backend, podSandboxId, verbose) => backend.podSandboxStatus({ podSandboxId, verbose }),
  doc: async (r) => (r.status ? podStatusDoc(r.status) : undefined),
  table: tableText,
  errorPrefix: (input) => `getting the pod sandbox status for "${input}"`,
});

function tableText(r: cri.PodSandboxStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  const m = st.metadata;
  if (m) {
    if (m.name) s += `Name: ${m.name}\n`;
    if (m.uid) s += `UID: ${m.uid}\n`;
    if (m.namespace) s += `Namespace: ${m.namespace}\n`;
    s += `Attempt: ${m.attempt}\n`;
  }
  s += `Status: ${st.state}\n`;
  s += `Created: ${goTimeString(st.createdAt || '0')}\n`;
  if (st.network) {
    s += `IP Addresses: ${st.network.ip}\n`;
    for (const ip of st.network.additionalIps ?? []) s += `Additional IP: ${ip.ip}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}
