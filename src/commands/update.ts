import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';
import type { LinuxContainerResourcesIn } from '../api/cri.js';

export default defineCommand({
  summary: 'Update one or more running containers',
  usage: 'update [OPTIONS] CONTAINER-ID [CONTAINER-ID...]',
  strict: false,
  flags: {
    'cpu-period': Flags.string({ summary: 'CPU CFS period to be used for hardcapping (in usecs). 0 to use system default' }),
    'cpu-quota': Flags.string({ summary: 'CPU CFS hardcap limit (in usecs). Allowed cpu time in a given period' }),
    'cpu-share': Flags.string({ summary: 'CPU shares (relative weight vs. other containers)' }),
    'cpu-rt-period': Flags.string({ summary: 'CPU real-time period (in usecs); CRI has no field for it, so any non-zero value is refused' }),
    'cpu-rt-runtime': Flags.string({ summary: 'CPU real-time runtime (in usecs); CRI has no field for it, so any non-zero value is refused' }),
    memory: Flags.string({ summary: 'Memory limit (in bytes, or with a k, m, g, t suffix: 1024-based)' }),
    'cpuset-cpus': Flags.string({ summary: 'CPU(s) to use' }),
    'cpuset-mems': Flags.string({ summary: 'Memory node(s) to use' }),
  },
  async run(ctx) {
    if (ctx.argv.length === 0) throw new Error('ID cannot be empty');
    const linux = updateResources(ctx.flags);
    const backend = await ctx.backend();
    const { resolveContainerId } = await import('../cli/resolve-id.js');
    for (const given of ctx.argv) {
      try {
        const containerId = await resolveContainerId(backend, given);
        await backend.updateContainerResources({ containerId, linux });
      } catch (err) {
        throw new Error(`updating container resources for "${given}": ${(err as Error).message}`);
      }
      ctx.print(`${given}\n`);
    }
  },
});

/** The LinuxContainerResources of an update; zero and empty fields mean "leave as is" to the runtime. */
export function updateResources(flags: Record<string, string | undefined>): LinuxContainerResourcesIn {
  for (const rt of ['cpu-rt-period', 'cpu-rt-runtime']) {
    if (flags[rt] !== undefined && parseInteger(rt, flags[rt]!) !== '0') {
      throw new Error(`--${rt} cannot be applied: CRI UpdateContainerResources has no real-time CPU fields`);
    }
  }
  const out: LinuxContainerResourcesIn = {};
  if (flags['cpu-period'] !== undefined) out.cpuPeriod = parseInteger('cpu-period', flags['cpu-period']);
  if (flags['cpu-quota'] !== undefined) out.cpuQuota = parseInteger('cpu-quota', flags['cpu-quota']);
  if (flags['cpu-share'] !== undefined) out.cpuShares = parseInteger('cpu-share', flags['cpu-share']);
  if (flags.memory !== undefined) out.memoryLimitInBytes = parseMemory(flags.memory);
  if (flags['cpuset-cpus'] !== undefined) out.cpusetCpus = flags['cpuset-cpus'];
  if (flags['cpuset-mems'] !== undefined) out.cpusetMems = flags['cpuset-mems'];
  return out;
}

/** A signed 64-bit integer as a decimal string (crictl's Int64Flag). */
export function parseInteger(flag: string, value: string): string {
  if (!/^[-+]?\d+$/.test(value.trim())) throw new Error(`invalid value "${value}" for flag -${flag}: parse error`);
  const n = BigInt(value.trim());
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw new Error(`invalid value "${value}" for flag -${flag}: value out of range`);
  return n.toString();
}

const RAM_UNITS: Record<string, bigint> = { '': 1n, k: 1n << 10n, m: 1n << 20n, g: 1n << 30n, t: 1n << 40n, p: 1n << 50n };

/** Bytes, or a size with a 1024-based suffix as go-units RAMInBytes parses it ("512m", "1.5G", "64MiB"). */
export function parseMemory(value: string): string {
  const v = value.trim();
  if (/^[-+]?\d+$/.test(v)) return parseInteger('memory', v);
  const m = /^(\d+(?:\.\d+)?) ?([kKmMgGtTpP])?[iI]?[bB]?$/.exec(v);
  if (!m) throw new Error(`invalid value "${value}" for flag -memory: invalid size`);
  const unit = RAM_UNITS[(m[2] ?? '').toLowerCase()];
  const [whole, frac = ''] = m[1].split('.');
  const scale = 10n ** BigInt(frac.length);
  const bytes = (BigInt(whole + frac) * unit) / scale;
  return bytes.toString();
}
