import { inspectCommand } from '../cli/inspect-command.js';
import { resolvePodId } from '../cli/resolve-id.js';
import { podStatusDoc } from '../cli/status-output.js';
import { podStatusTable } from '../cli/output/status-tables.js';
import { podStatusError } from '../cli/inspect-errors.js';
import type * as cri from '../api/cri.js';

export default inspectCommand<cri.PodSandboxStatusResponse>({
  verb: 'inspectp',
  summary: 'Display the status of one or more pods',
  idName: 'POD-ID',
  resolve: resolvePodId,
  status: (backend, podSandboxId, verbose) => backend.podSandboxStatus({ podSandboxId, verbose }),
  doc: async (r) => (r.status ? podStatusDoc(r.status) : undefined),
  table: podStatusTable,
  errorPrefix: podStatusError,
});
