import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import { humanSize } from '../cli/output/units.js';
import { toPlain } from '../cli/output/format.js';
import type { FilesystemUsage, ImageFsInfoResponse } from '../api/cri.js';

export default defineCommand({
  summary: 'Return image filesystem info',
  flags: {
    output: Flags.option({ char: 'o', options: ['json', 'yaml', 'go-template', 'table'] as const, summary: 'Output format, One of: json|yaml|go-template|table' })(),
    template: Flags.string({ summary: 'The template string is only used when output is go-template; The Template format is golang template' }),
  },
  async run(ctx) {
    const { inspectOutputFormat, renderStatusDoc, statusInfoDoc, protoOrdered } = await import('../cli/status-output.js');
    const output = inspectOutputFormat(ctx.flags.output);
    const backend = await ctx.backend();
    let r: ImageFsInfoResponse;
    try {
      r = await backend.imageFsInfo({});
    } catch (err) {
      throw new Error(`image filesystem info request: ${(err as Error).message}`);
    }
    if (output === 'table') {
      ctx.print(fsInfoTable(r));
      return;
    }
    ctx.print(await renderStatusDoc(statusInfoDoc(toPlain(await protoOrdered('ImageFsInfoResponse', r)) as Record<string, unknown>, {}), output, ctx.flags.template));
  },
});

export function fsInfoTable(r: ImageFsInfoResponse): string {
  const block = (label: string, list: FilesystemUsage[]) => {
    let s = `${label} Filesystem \n`;
    list.forEach((u, i) => {
      s += `TimeStamp[${i}]: ${u.timestamp}\n`;
      s += `Disk[${i}]: ${humanSize(Number(u.usedBytes?.value ?? 0), 4)}\n`;
      s += `Inodes[${i}]: ${u.inodesUsed?.value ?? 0}\n`;
      s += `Mountpoint[${i}]: ${u.fsId?.mountpoint ?? ''}\n`;
    });
    return s;
  };
  return block('Container', r.containerFilesystems ?? []) + block('Image', r.imageFilesystems ?? []);
}
