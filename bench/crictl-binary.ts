// Where the benches find upstream crictl: v1.34.0 as scripts/build-critest.sh builds it (named by
// the hash of its source tarball), else any crictl-* build in that cache, else crictl on PATH.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function crictlBinary(): string | undefined {
  const dir = process.env.ISULATS_CRITEST_DIR ?? '/var/cache/isulats/critest';
  const tarball = join(process.env.ISULATS_CRITEST_SOURCES ?? join(process.cwd(), '..', 'shared', 'cri-tools'), 'cri-tools-1.34.0-critest.tar.gz');
  if (existsSync(tarball)) {
    const built = join(dir, `crictl-${createHash('sha256').update(readFileSync(tarball)).digest('hex').slice(0, 16)}`);
    if (existsSync(built)) return built;
  }
  const any = existsSync(dir) ? readdirSync(dir).find((f) => f.startsWith('crictl-')) : undefined;
  if (any) return join(dir, any);
  return (process.env.PATH ?? '').split(delimiter).map((p) => join(p, 'crictl')).find((p) => existsSync(p));
}
