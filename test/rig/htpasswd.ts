import { writeFile } from 'node:fs/promises';
import { run } from './proc.js';

// bcrypt through Debian's own python3 `crypt` module (libxcrypt speaks $2b$): no npm dependency and no
// apache2-utils. /usr/bin/python3 is used on purpose: a pyenv python >= 3.13 has no `crypt` module.
const PYTHON = '/usr/bin/python3';
const SCRIPT = [
  'import crypt, sys',
  'pw = sys.stdin.read()',
  'print(crypt.crypt(pw, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))',
].join('\n');

/** Returns a bcrypt hash that docker-registry's htpasswd auth accepts (cost 4 keeps tests fast). */
export async function bcryptHash(password: string): Promise<string> {
  const { stdout } = await run(PYTHON, ['-W', 'ignore', '-c', SCRIPT], { input: password, timeoutMs: 30_000 });
  const hash = stdout.trim();
  if (!/^\$2[aby]\$/.test(hash)) throw new Error(`python3 crypt did not produce a bcrypt hash: ${hash}`);
  return hash;
}

/** Writes an htpasswd file with one `user:bcrypt` line per entry. */
export async function writeHtpasswd(path: string, users: Record<string, string>): Promise<void> {
  const lines: string[] = [];
  for (const [user, password] of Object.entries(users)) lines.push(`${user}:${await bcryptHash(password)}`);
  await writeFile(path, `${lines.join('\n')}\n`, { mode: 0o600 });
}
