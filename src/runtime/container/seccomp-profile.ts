// Which seccomp profile a pod or container asked for, read as containerd's CRI plugin reads it:
// the structured `seccomp` field wins; without it, the deprecated seccomp_profile_path is one of
// "" (none), `unconfined`, `runtime/default`, `docker/default` or `localhost/<absolute path>`.
// A Localhost profile is a JSON file on the host, loaded before the spec is built.
import { readFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';
import { enumName, PROFILE_TYPES } from './cri-values.js';

export type SeccompChoice = { type: 'Unconfined' } | { type: 'RuntimeDefault' } | { type: 'Localhost'; path: string };

export interface SeccompSettings {
  privileged?: boolean | null;
  seccomp?: cri.SecurityProfileIn | null;
  seccompProfilePath?: string | null;
}

const LOCALHOST_PREFIX = 'localhost/';

/** The profile `sc` selects, or undefined for none (privileged, or nothing set). Throws on bad input. */
export function seccompChoice(sc: SeccompSettings | null | undefined): SeccompChoice | undefined {
  if (!sc || sc.privileged) return undefined;
  if (sc.seccomp) {
    const type = enumName(sc.seccomp.profileType as never, PROFILE_TYPES);
    const ref = sc.seccomp.localhostRef ?? '';
    if (type !== 'Localhost' && ref) throw invalidArgument(`seccomp localhost_ref must only be set if profile_type is Localhost (got ${type})`);
    if (type === 'Localhost') return { type, path: localPath(ref.startsWith(LOCALHOST_PREFIX) ? ref.slice(LOCALHOST_PREFIX.length) : ref) };
    return { type };
  }
  const legacy = sc.seccompProfilePath ?? '';
  if (legacy === '') return undefined;
  if (legacy === 'unconfined') return { type: 'Unconfined' };
  if (legacy === 'runtime/default' || legacy === 'docker/default') return { type: 'RuntimeDefault' };
  if (legacy.startsWith(LOCALHOST_PREFIX)) return { type: 'Localhost', path: localPath(legacy.slice(LOCALHOST_PREFIX.length)) };
  throw invalidArgument(`invalid seccomp profile "${legacy}": use unconfined, runtime/default, docker/default or localhost/<absolute path>`);
}

function localPath(path: string): string {
  if (!isAbsolute(path)) throw invalidArgument(`seccomp localhost profile must be an absolute path, got "${path}"`);
  return path;
}

/** The parsed Localhost profile file `sc` names, or undefined when it names none. */
export async function loadLocalhostSeccomp(sc: SeccompSettings | null | undefined): Promise<unknown> {
  const choice = seccompChoice(sc);
  if (choice?.type !== 'Localhost') return undefined;
  let text: string;
  try {
    text = await readFile(choice.path, 'utf8');
  } catch (error) {
    throw invalidArgument(`cannot load seccomp profile ${choice.path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed;
  } catch (error) {
    throw invalidArgument(`cannot load seccomp profile ${choice.path}: ${(error as Error).message}`);
  }
}
