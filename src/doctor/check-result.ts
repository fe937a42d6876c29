// One line of the doctor's checklist: ✓ (ok), ✗ (fail) or ! (warn: worth a
// look, or not checkable here), with one line of evidence and, for a
// failure, one line of fix.

export type CheckStatus = 'ok' | 'fail' | 'warn';

export interface CheckResult {
  /** Stable id for CI (`cni.plugins`, `disk.image`). */
  id: string;
  title: string;
  status: CheckStatus;
  evidence: string;
  fix?: string;
}

export const ok = (id: string, title: string, evidence: string): CheckResult => ({ id, title, status: 'ok', evidence });
export const warn = (id: string, title: string, evidence: string, fix?: string): CheckResult => ({ id, title, status: 'warn', evidence, ...(fix ? { fix } : {}) });
export const fail = (id: string, title: string, evidence: string, fix: string): CheckResult => ({ id, title, status: 'fail', evidence, fix });
