// crictl's `-o table` forms of inspect, inspectp and inspecti (the table form
// of one status, with the verbose Info line when asked). Pure: the full CLI's
// commands and the fast path (src/fast/) both print through these.
import type * as cri from '../../api/cri.js';
import { goTimeString, mapSection } from '../filters.js';
import { goMapString } from './status-doc.js';
import { ago, humanSize } from './units.js';

export function containerStatusTable(r: cri.ContainerStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  if (st.metadata) {
    if (st.metadata.name) s += `Name: ${st.metadata.name}\n`;
    if (st.metadata.attempt) s += `Attempt: ${st.metadata.attempt}\n`;
  }
  s += `State: ${st.state}\n`;
  s += `Created: ${ago(st.createdAt)}\n`;
  if (st.state !== 'CONTAINER_CREATED') s += `Started: ${ago(st.startedAt)}\n`;
  if (st.state === 'CONTAINER_EXITED') {
    if (BigInt(st.finishedAt || '0') > 0n) s += `Finished: ${ago(st.finishedAt)}\n`;
    s += `Exit Code: ${st.exitCode}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}

export function podStatusTable(r: cri.PodSandboxStatusResponse, verbose: boolean): string {
  const st = r.status!;
  let s = `ID: ${st.id}\n`;
  const m = st.metadata;
  if (m) {
    if (m.name) s += `Name: ${m.name}\n`;
    if (m.uid) s += `UID: ${m.uid}\n`;
    if (m.namespace) s += `Namespace: ${m.namespace}\n`;
    s += `Attempt: ${m.attempt}\n`;
  }
  s += `Status: ${st.state}\n`;
  s += `Created: ${goTimeString(st.createdAt || '0')}\n`;
  if (st.network) {
    s += `IP Addresses: ${st.network.ip}\n`;
    for (const ip of st.network.additionalIps ?? []) s += `Additional IP: ${ip.ip}\n`;
  }
  s += mapSection('Labels', st.labels) + mapSection('Annotations', st.annotations);
  if (verbose) s += `Info: ${goMapString(r.info)}\n`;
  return s;
}

/** The table form without the verbose Info line. */
export function imageStatusTable(r: cri.ImageStatusResponse): string {
  const image = r.image!;
  let s = `ID: ${image.id}\n`;
  for (const tag of image.repoTags) s += `Tag: ${tag}\n`;
  for (const digest of image.repoDigests) s += `Digest: ${digest}\n`;
  s += `Size: ${humanSize(Number(image.size))}\n`;
  return s;
}
