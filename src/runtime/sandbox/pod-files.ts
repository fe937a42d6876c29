// The files a pod's containers share: /etc/hosts, /etc/hostname and
// /etc/resolv.conf, written into the sandbox dir and bind-mounted.
import { copyFile, writeFile } from 'node:fs/promises';
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
  if (ip) lines.push(`${ip}\t${hostname}`);
  return `${lines.join('\n')}\n`;
}

export async function writePodFiles(dir: string, config: cri.PodSandboxConfigIn, hostname: string, hostNetwork: boolean, ip?: string): Promise<PodFiles> {
  const files = { hostsPath: join(dir, 'hosts'), hostnamePath: join(dir, 'hostname'), resolvConfPath: join(dir, 'resolv.conf') };
  await writeFile(files.hostnamePath, `${hostname}\n`);
  if (hostNetwork) await copyFile('/etc/hosts', files.hostsPath).catch(() => writeFile(files.hostsPath, hostsFile(hostname)));
  else await writeFile(files.hostsPath, hostsFile(hostname, ip));
  const dns = config.dnsConfig;
  if (dns && ((dns.servers?.length ?? 0) > 0 || (dns.searches?.length ?? 0) > 0 || (dns.options?.length ?? 0) > 0)) {
    await writeFile(files.resolvConfPath, resolvConf(dns));
  } else {
    await copyFile('/etc/resolv.conf', files.resolvConfPath).catch(() => writeFile(files.resolvConfPath, ''));
  }
  return files;
}
