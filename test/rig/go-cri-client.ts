// The Go CRI client of test/go-cri-client (k8s.io/cri-api, grpc-go, client-go's remotecommand and
// portforward), built by scripts/build-go-cri-client.sh into a file named after main.go's hash.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { run, type RunOptions, type RunResult } from './proc.js';

export const GO_CRI_CLIENT_SOURCE = join(REPO_ROOT, 'test/go-cri-client/main.go');

/** The binary built from the current main.go; throws, saying how to build it, when there is none. */
export function goCriClientPath(): string {
  const dir = process.env.ISULATS_GO_TRIXIE_DIR ?? '/var/cache/isulats/go-trixie';
  // Same name as the build script's: sha256 of main.go, 16 hex digits. A stale build never matches.
  const hash = createHash('sha256').update(readFileSync(GO_CRI_CLIENT_SOURCE)).digest('hex').slice(0, 16);
  const bin = join(dir, 'bin', `go-cri-client-${hash}`);
  if (!existsSync(bin)) {
    throw new Error(`Go CRI client not built for the current ${GO_CRI_CLIENT_SOURCE} (no ${bin}): `
      + 'run scripts/build-go-cri-client.sh (scripts/setup.sh does)');
  }
  return bin;
}

export type GoRunOptions = Pick<RunOptions, 'input' | 'keepStdinOpen' | 'timeoutMs'>;

/** Runs the client to completion; any exit code resolves (a timeout kills it by PID). */
export function runGoCriClient(bin: string, args: string[], opts: GoRunOptions = {}): Promise<RunResult> {
  return run(bin, args, { timeoutMs: 90_000, ...opts, check: false });
}
