// Resolves a user spec ("name", "uid", "name:group", "uid:gid") against the
// image's /etc/passwd and /etc/group contents, as runc-based runtimes do.
import { invalidArgument } from '../errors.js';

export interface ResolvedUser {
  uid: number;
  gid: number;
  additionalGids: number[];
  /** Login name when known (used for HOME and group membership). */
  name?: string;
  home?: string;
}

interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

export function parsePasswd(text: string | undefined): PasswdEntry[] {
  const out: PasswdEntry[] = [];
  for (const line of (text ?? '').split('\n')) {
    const f = line.split(':');
    if (f.length < 7 || line.startsWith('#')) continue;
    const uid = Number(f[2]);
    const gid = Number(f[3]);
    if (Number.isInteger(uid) && Number.isInteger(gid)) out.push({ name: f[0]!, uid, gid, home: f[5]! });
  }
  return out;
}

export function parseGroup(text: string | undefined): GroupEntry[] {
  const out: GroupEntry[] = [];
  for (const line of (text ?? '').split('\n')) {
    const f = line.split(':');
    if (f.length < 4 || line.startsWith('#')) continue;
    const gid = Number(f[2]);
    if (Number.isInteger(gid)) out.push({ name: f[0]!, gid, members: f[3]!.split(',').filter(Boolean) });
  }
  return out;
}

const isNumeric = (s: string) => /^\d+$/.test(s);

/** `user` is the image's or the CRI's user spec; empty means root. */
export function resolveUser(user: string, passwd: string | undefined, group: string | undefined): ResolvedUser {
  const users = parsePasswd(passwd);
  const groups = parseGroup(group);
  const [userPart = '', groupPart] = user.split(':', 2);
  let entry: PasswdEntry | undefined;
  let uid: number;
  if (userPart === '') {
    uid = 0;
    entry = users.find((u) => u.uid === 0);
  } else if (isNumeric(userPart)) {
    uid = Number(userPart);
    entry = users.find((u) => u.uid === uid);
  } else {
    entry = users.find((u) => u.name === userPart);
    if (!entry) throw invalidArgument(`user "${userPart}" not found in the image's /etc/passwd`);
    uid = entry.uid;
  }
  let gid = entry?.gid ?? 0;
  if (groupPart !== undefined && groupPart !== '') {
    if (isNumeric(groupPart)) gid = Number(groupPart);
    else {
      const g = groups.find((x) => x.name === groupPart);
      if (!g) throw invalidArgument(`group "${groupPart}" not found in the image's /etc/group`);
      gid = g.gid;
    }
  }
  const additionalGids = entry ? groups.filter((g) => g.members.includes(entry!.name) && g.gid !== gid).map((g) => g.gid) : [];
  return { uid, gid, additionalGids, name: entry?.name, home: entry?.home };
}
