import { inspectCommand } from '../cli/inspect-command.js';
import { resolveContainerId } from '../cli/resolve-id.js';
import { containerStatusDoc } from '../cli/status-output.js';
import { containerStatusTable } from '../cli/output/status-tables.js';
import { containerStatusError } from '../cli/inspect-errors.js';
import type * as cri from '../api/cri.js';

export default inspectCommand<cri.ContainerStatusResponse>({
  verb: 'inspect',
  summary: 'Display the status of one or more containers',
  idName: 'CONTAINER-ID',
  resolve: resolveContainerId,
  status: (backend, containerId, verbose) => backend.containerStatus({ containerId, verbose }),
  doc: async (r) => (r.status ? containerStatusDoc(r.status) : undefined),
  table: containerStatusTable,
  errorPrefix: containerStatusError,
});
