// CRI Status conditions: kubelet marks the node NotReady unless RuntimeReady
// and NetworkReady are true.
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface Condition {
  type: string;
  status: boolean;
  reason?: string;
  message?: string;
}

export interface StatusFacts {
  conditions?: Condition[];
  error?: string;
}

const FIX: Record<string, string> = {
  RuntimeReady: "read the runtime's log; the runtime cannot run containers",
  NetworkReady: 'put a valid CNI config into the CNI conf dir (see the cni checks below)',
};

export function evaluateStatus(f: StatusFacts): CheckResult[] {
  if (f.error || !f.conditions) return [fail('status', 'CRI Status', f.error ?? 'no answer', 'see the endpoint check')];
  return ['RuntimeReady', 'NetworkReady'].map((type) => {
    const id = `status.${type}`;
    const c = f.conditions!.find((x) => x.type === type);
    if (!c) return warn(id, type, 'the runtime does not report this condition');
    if (c.status) return ok(id, type, 'true');
    const why = [c.reason, c.message].filter(Boolean).join(': ') || 'no reason given';
    return fail(id, type, `false (${why})`, FIX[type]!);
  });
}
