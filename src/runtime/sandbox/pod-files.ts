// The files a pod's containers share: /etc/hosts, /etc/hostname and
// /etc/resolv.conf, written into the sandbox dir and bind-mounted. A few hundred bytes each, written
// on the calling thread: as async calls they were ten thread-pool round trips in a row, each queued
// behind the fsyncs of every other pod starting at the same time.
import { chownSync, copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as cri from '../../api/cri.js';

export interface PodFiles {
  hostsPath: string;
  hostnamePath: string;
  resolvConfPath: string;
}

export function resolvConf(dns: cri.DNSConfigIn): string {
  const lines: string[] = [];
  if (dns.searches?.length) lines.push(`search ${dns.searches.join(' ')}`);
  for (const s of dns.servers ?? []) lines.push(`nameserver ${s}`);
  if (dns.options?.length) lines.push(`options ${dns.options.join(' ')}`);
  return `${lines.join('\n')}\n`;
}

export function hostsFile(hostname: string, ip?: string): string {
  const lines = ['127.0.0.1\tlocalhost', '::1\tlocalhost ip6-localhost ip6-loopback', 'fe00::0\tip6-localnet', 'ff00::0\tip6-mcastprefix', 'ff02::1\tip6-allnodes', 'ff02::2\tip6-allrouters'];
  // The kernel takes any hostname bytes; one that /etc/hosts cannot hold as a name (blanks, `#`) gets no line.
  if (ip && !/[\s#]/.test(hostname)) lines.push(`${ip}\t${hostname}`);
  return `${lines.join('\n')}\n`;
}

/** `owner`: the host IDs of the pod's root in a pod with a user namespace, who then owns the files (as root does elsewhere). */
export async function writePodFiles(
  dir: string,
  config: cri.PodSandboxConfigIn,
  hostname: string,
  hostNetwork: boolean,
  ip?: string,
  owner?: { uid: number; gid: number },
): Promise<PodFiles> {
  const files = { hostsPath: join(dir, 'hosts'), hostnamePath: join(dir, 'hostname'), resolvConfPath: join(dir, 'resolv.conf') };
  writeFileSync(files.hostnamePath, `${hostname}\n`);
  if (hostNetwork) copyOr('/etc/hosts', files.hostsPath, hostsFile(hostname));
  else writeFileSync(files.hostsPath, hostsFile(hostname, ip));
  const dns = config.dnsConfig;
  if (dns && ((dns.servers?.length ?? 0) > 0 || (dns.searches?.length ?? 0) > 0 || (dns.options?.length ?? 0) > 0)) {
    writeFileSync(files.resolvConfPath, resolvConf(dns));
  } else {
    copyOr('/etc/resolv.conf', files.resolvConfPath, '');
  }
  if (owner) for (const path of Object.values(files)) chownSync(path, owner.uid, owner.gid);
  return files;
}

/** The host's file, or `fallback` where the host has none. */
function copyOr(hostFile: string, to: string, fallback: string): void {
  try {
    copyFileSync(hostFile, to);
  } catch {
    writeFileSync(to, fallback);
  }
}
