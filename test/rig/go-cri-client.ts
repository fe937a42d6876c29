// The Go CRI client of test/go-cri-client (k8s.io/cri-api, grpc-go, client-go's remotecommand and
// portforward), built by scripts/build-go-cri-client.sh into a file named after main.go's hash.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';
import { signalPid } from './proc.js';

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

export interface GoRunOptions {
  input?: string;
  /** Write `input` but keep stdin open until the client exits, as a terminal user would. */
  keepStdinOpen?: boolean;
  timeoutMs?: number;
}

export interface GoResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the client to completion; a timeout kills it by PID (and shows as code 137). */
export function runGoCriClient(bin: string, args: string[], opts: GoRunOptions = {}): Promise<GoResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: 'pipe' });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    const timer = setTimeout(() => {
      if (child.pid) signalPid(child.pid, 'SIGKILL');
    }, opts.timeoutMs ?? 90_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({
        code: code ?? (signal === 'SIGKILL' ? 137 : 128),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      });
    });
    child.stdin.on('error', () => undefined);
    if (opts.keepStdinOpen) child.stdin.write(opts.input ?? '');
    else child.stdin.end(opts.input);
  });
}
