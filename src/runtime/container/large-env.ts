// A large config's env (kubelet's service links: about 7 vars per Service) copied and checked a
// slice at a time, so a 100k-var CreateContainer does not hold the event loop for a whole pass.
import type * as cri from '../../api/cri.js';
import { refuseNulBytes } from '../nul-bytes.js';
import { storable } from '../storable.js';

/**
 * `envs` as storable() copies them (values as UTF-8 strings), `slice` at a time with `between`
 * awaited in between; throws InvalidArgument naming `config.envs[i]` for a NUL byte, as
 * refuseNulBytes on the whole config does.
 */
export async function storableEnvsInSlices(
  envs: cri.KeyValueIn[], slice: number, between: () => Promise<void>,
): Promise<cri.KeyValueIn[]> {
  const out = new Array<cri.KeyValueIn>(envs.length);
  for (let from = 0; from < envs.length; from += slice) {
    if (from > 0) await between();
    const to = Math.min(from + slice, envs.length);
    for (let i = from; i < to; i++) {
      const kv = envs[i];
      const copy = (kv === undefined ? null : storable(kv)) as cri.KeyValueIn;
      // The copy holds strings only: the quick test, then the usual message for a hit.
      if (copy && ((typeof copy.key === 'string' && copy.key.includes('\0')) || (typeof copy.value === 'string' && copy.value.includes('\0')))) {
        refuseNulBytes(copy, `config.envs[${i}]`);
      }
      out[i] = copy;
    }
  }
  return out;
}

/**
 * JSON.stringify(spec), the same text, with a large process.env written `slice` entries at a
 * time with `between` awaited in between (the rest of the spec is small).
 */
export async function specJsonInSlices(
  spec: { process?: { env?: string[] } }, slice: number, between: () => Promise<void>,
): Promise<string> {
  const env = spec.process?.env;
  if (!env || env.length <= slice) return JSON.stringify(spec);
  // A placeholder no env entry can be (entries are KEY=value strings): replaced by the env's JSON below.
  const placeholder = `\u0000isulats-env-${Math.random().toString(36).slice(2)}`;
  const head = JSON.stringify({ ...spec, process: { ...spec.process, env: placeholder } });
  const quoted = JSON.stringify(placeholder);
  const at = head.indexOf(quoted);
  const parts: string[] = [];
  for (let from = 0; from < env.length; from += slice) {
    await between();
    parts.push(JSON.stringify(env.slice(from, from + slice)).slice(1, -1));
  }
  return `${head.slice(0, at)}[${parts.join(',')}]${head.slice(at + quoted.length)}`;
}
