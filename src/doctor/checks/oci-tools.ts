// The low-level tools: an OCI runtime (runc or crun) and, for isulats' engine,
// conmon; each with its version.
import { fail, ok, warn, type CheckResult } from '../check-result.js';

export interface ToolFacts {
  name: 'runc' | 'crun' | 'conmon';
  path?: string;
  version?: string;
}

export function evaluateTools(tools: ToolFacts[], needsConmon: boolean): CheckResult[] {
  const anyRuntime = tools.some((t) => (t.name === 'runc' || t.name === 'crun') && t.path);
  return tools.map((t) => {
    const id = `tools.${t.name}`;
    if (t.path) {
      if (!t.version) return warn(id, t.name, `${t.path} does not answer --version`, `check that ${t.path} runs`);
      return ok(id, t.name, `${t.path}: ${t.version}`);
    }
    if (t.name === 'conmon') {
      return needsConmon
        ? fail(id, t.name, 'not found on PATH', 'install conmon (apt-get install conmon)')
        : warn(id, t.name, 'not found (only isulats\' engine and CRI-O use it)');
    }
    return anyRuntime
      ? warn(id, t.name, 'not found (another OCI runtime is present)')
      : fail(id, t.name, 'not found on PATH, nor any other OCI runtime', 'install runc (apt-get install runc)');
  });
}
