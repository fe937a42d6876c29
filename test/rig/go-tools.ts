// The Go programs scripts/build-go-test-tools.sh builds against upstream libraries, each into a
// file named after its main.go's hash: our CRI client of test/go-cri-client (k8s.io/cri-api,
// grpc-go, client-go's remotecommand and portforward) and the NRI plugin of
// examples/nri/go-reference-plugin (upstream's stub, github.com/containerd/nri).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { run, type RunOptions, type RunResult } from './proc.js';

const SOURCES = {
  'go-cri-client': 'test/go-cri-client/main.go',
  'go-nri-plugin': 'examples/nri/go-reference-plugin/main.go',
} as const;

export type GoTool = keyof typeof SOURCES;

/** The binary built from the tool's current main.go; throws, saying how to build it, when there is none. */
export function goToolPath(tool: GoTool): string {
  const dir = process.env.ISULATS_GO_TRIXIE_DIR ?? '/var/cache/isulats/go-trixie';
  const source = join(REPO_ROOT, SOURCES[tool]);
  // Same name as the build script's: sha256 of main.go, 16 hex digits. A stale build never matches.
  const hash = createHash('sha256').update(readFileSync(source)).digest('hex').slice(0, 16);
  const bin = join(dir, 'bin', `${tool}-${hash}`);
  if (!existsSync(bin)) {
    throw new Error(`${tool} not built for the current ${source} (no ${bin}): `
      + 'run scripts/build-go-test-tools.sh (scripts/setup.sh does)');
  }
  return bin;
}

export type GoRunOptions = Pick<RunOptions, 'input' | 'keepStdinOpen' | 'timeoutMs'>;

/** Runs the client to completion; any exit code resolves (a timeout kills it by PID). */
export function runGoCriClient(bin: string, args: string[], opts: GoRunOptions = {}): Promise<RunResult> {
  return run(bin, args, { timeoutMs: 90_000, ...opts, check: false });
}

/** What the Go client's `exec-burst` prints (JSON): sessions that succeeded or failed, errors by
 * class, sorted session latencies, and the ListPodSandbox calls made meanwhile. */
export interface ExecBurstResult {
  ok: number;
  failed: number;
  errors: Record<string, number>;
  latenciesMs: number[];
  unary: { calls: number; failed: number; maxMs: number };
}
