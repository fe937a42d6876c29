// Kernel settings pod networking needs: IP forwarding, and bridged traffic
// passing iptables (Services, NetworkPolicy) through br_netfilter.
import { fail, ok, type CheckResult } from '../check-result.js';

export interface SysctlFacts {
  /** Values as read from /proc/sys; undefined when the file does not exist. */
  ipForward?: string;
  bridgeNfCallIptables?: string;
}

export function evaluateSysctls(f: SysctlFacts): CheckResult[] {
  const out: CheckResult[] = [];
  out.push(f.ipForward?.trim() === '1'
    ? ok('sysctl.ip_forward', 'net.ipv4.ip_forward', '1')
    : fail('sysctl.ip_forward', 'net.ipv4.ip_forward', f.ipForward === undefined ? 'not readable' : f.ipForward.trim(), 'sysctl -w net.ipv4.ip_forward=1 (and persist it in /etc/sysctl.d)'));
  if (f.bridgeNfCallIptables === undefined) {
    out.push(fail('sysctl.bridge-nf-call-iptables', 'net.bridge.bridge-nf-call-iptables', 'missing: br_netfilter is not loaded', 'modprobe br_netfilter; sysctl -w net.bridge.bridge-nf-call-iptables=1'));
  } else {
    out.push(f.bridgeNfCallIptables.trim() === '1'
      ? ok('sysctl.bridge-nf-call-iptables', 'net.bridge.bridge-nf-call-iptables', '1')
      : fail('sysctl.bridge-nf-call-iptables', 'net.bridge.bridge-nf-call-iptables', f.bridgeNfCallIptables.trim(), 'sysctl -w net.bridge.bridge-nf-call-iptables=1'));
  }
  return out;
}
