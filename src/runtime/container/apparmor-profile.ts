// Which AppArmor profile a container runs under, read as containerd's CRI plugin reads it: the
// structured `apparmor` field wins; without it, the deprecated apparmor_profile is one of ""
// (the runtime default), `runtime/default`, `docker/default`, `unconfined` or `localhost/<name>`.
// The runtime default is our own profile (isulats-default), loaded before the first container
// that needs it; a Localhost profile must already be loaded in the kernel. A host without
// AppArmor gets no profile for the default and unconfined, as with containerd, and refuses a
// Localhost one.
import type * as cri from '../../api/cri.js';
import { invalidArgument } from '../errors.js';
import { enumName, PROFILE_TYPES } from './cri-values.js';

export type ApparmorChoice = { type: 'Unconfined' } | { type: 'RuntimeDefault' } | { type: 'Localhost'; name: string };

export interface ApparmorSettings {
  privileged?: boolean | null;
  apparmor?: cri.SecurityProfileIn | null;
  apparmorProfile?: string | null;
}

export const DEFAULT_APPARMOR_PROFILE = 'isulats-default';
const LOCALHOST_PREFIX = 'localhost/';

/** The profile `sc` selects (nothing set: the runtime default). Throws InvalidArgument on bad input. */
export function apparmorChoice(sc: ApparmorSettings | null | undefined): ApparmorChoice {
  if (sc?.apparmor) {
    const type = enumName(sc.apparmor.profileType as never, PROFILE_TYPES);
    const ref = sc.apparmor.localhostRef ?? '';
    if (type !== 'Localhost' && ref) throw invalidArgument(`apparmor localhost_ref must only be set if profile_type is Localhost (got ${type})`);
    if (type === 'Localhost') return { type, name: profileName(ref.startsWith(LOCALHOST_PREFIX) ? ref.slice(LOCALHOST_PREFIX.length) : ref) };
    if (type === 'Unconfined' || type === 'RuntimeDefault') return { type };
    throw invalidArgument(`unknown apparmor profile_type ${String(sc.apparmor.profileType)}`);
  }
  const legacy = sc?.apparmorProfile ?? '';
  if (legacy === '' || legacy === 'runtime/default' || legacy === 'docker/default') return { type: 'RuntimeDefault' };
  if (legacy === 'unconfined') return { type: 'Unconfined' };
  if (legacy.startsWith(LOCALHOST_PREFIX)) return { type: 'Localhost', name: profileName(legacy.slice(LOCALHOST_PREFIX.length)) };
  throw invalidArgument(`invalid apparmor profile "${legacy}": use runtime/default, unconfined or localhost/<profile name>`);
}

function profileName(name: string): string {
  // A profile name is one token of the kernel's profile list: no whitespace, no NUL.
  if (name === '' || /[\s\0]/.test(name)) throw invalidArgument(`invalid apparmor localhost profile name "${name}"`);
  return name;
}

/**
 * process.apparmorProfile for `sc` on a host with (or without) AppArmor, or undefined for none.
 * A privileged container runs unconfined unless it names a profile of its own, as with containerd.
 */
export function apparmorProfileFor(sc: ApparmorSettings | null | undefined, hostHasApparmor: boolean): string | undefined {
  const choice = apparmorChoice(sc);
  if (choice.type === 'Unconfined') return undefined;
  if (choice.type === 'RuntimeDefault') return hostHasApparmor && !sc?.privileged ? DEFAULT_APPARMOR_PROFILE : undefined;
  if (!hostHasApparmor) throw invalidArgument(`apparmor profile localhost/${choice.name} requested but the host has no AppArmor`);
  return choice.name;
}

/** The profile names in /sys/kernel/security/apparmor/profiles ("name (mode)" per line). */
export function loadedProfiles(profilesFile: string): Set<string> {
  const names = new Set<string>();
  for (const line of profilesFile.split('\n')) {
    const m = /^(.*) \((\w+)\)$/.exec(line.trim());
    if (m) names.add(m[1]!);
  }
  return names;
}

/**
 * Our runtime default, in the spirit of containerd's cri-containerd.apparmor.d: everything a
 * container normally does, but no mounts, no writes to the host's kernel knobs under /proc and
 * /sys, no reads of kernel memory or security state. Signals and ptrace only among containers
 * under this profile, plus signals from unconfined processes (runc, conmon, the daemon).
 */
export function defaultProfileText(name = DEFAULT_APPARMOR_PROFILE, withIncludes = true): string {
  return [
    ...(withIncludes ? ['#include <tunables/global>', ''] : []),
    `profile ${name} flags=(attach_disconnected,mediate_deleted) {`,
    ...(withIncludes ? ['  #include <abstractions/base>', ''] : []),
    '  network,',
    '  capability,',
    '  file,',
    '  umount,',
    '  pivot_root,',
    '  signal (receive) peer=unconfined,',
    `  signal (send,receive) peer=${name},`,
    `  ptrace (trace,read,tracedby,readby) peer=${name},`,
    '',
    '  deny mount,',
    '  deny /proc/sysrq-trigger rwklx,',
    '  deny /proc/kcore rwklx,',
    '  deny /proc/sys/[^k]** w,',
    '  deny /proc/sys/kernel/{?,??,[^s][^h][^m]**} w,',
    '  deny /sys/firmware/** rwklx,',
    '  deny /sys/kernel/security/** rwklx,',
    '  deny /sys/[^f]*/** wklx,',
    '  deny /sys/f[^s]*/** wklx,',
    '  deny /sys/fs/[^c]*/** wklx,',
    '  deny /sys/fs/c[^g]*/** wklx,',
    '  deny /sys/fs/cg[^r]*/** wklx,',
    '}',
    '',
  ].join('\n');
}
