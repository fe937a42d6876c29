import { inspectCommand } from '../cli/inspect-command.js';
import { ago } from '../cli/output/units.js';
import { mapSection } from '../cli/filters.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { containerStatusDoc, goMapString } from '../cli/status-output.js';
import type * as cri from '../api/cri.js';

export default inspectCommand<cri.ContainerStatusResponse>({
  verb: 'inspect',
  summary: 'Display the status of one or more containers',
  idName: 'CONTAINER-ID',
  resolve: resolveContainerId,
  status: (backend, containerId, verbose) => backend.containerStatus({ containerId, verbose }),
  doc: async (r) => (r.status ? containerStatusDoc(r.status) : undefined),
  table: tableText,
  errorPrefix: (input) => `getting the status of the container "${input}"`,
});

function tableText(r: cri.ContainerStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  if (st.metadata) {
    if (st.metadata.name) s += `Name: ${st.metadata.name}\n`;
    if (st.metadata.attempt) s += `Attempt: ${st.metadata.attempt}\n`;
  }
  s += `State: ${st.state}\n`;
  s += `Created: ${ago(st.createdAt)}\n`;
  if (st.state !== 'CONTAINER_CREATED') s += `Started: ${ago(st.startedAt)}\n`;
  if (st.state === 'CONTAINER_EXITED') {
    if (BigInt(st.finishedAt || '0') > 0n) s += `Finished: ${ago(st.finishedAt)}\n`;
    s += `Exit Code: ${st.exitCode}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}
