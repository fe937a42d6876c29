// Makes sure the AppArmor profile a container spec names is in the kernel before runc applies
// it: our runtime default (isulats-default) is written under <root>/apparmor and loaded with
// apparmor_parser at first need, as containerd loads cri-containerd.apparmor.d; any other
// (Localhost) profile must have been loaded by the node's administrator, else InvalidArgument.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { failedPrecondition, invalidArgument } from '../errors.js';
import { DEFAULT_APPARMOR_PROFILE, defaultProfileText, loadedProfiles } from './apparmor-profile.js';

const PROFILES_FILE = '/sys/kernel/security/apparmor/profiles';
const PARSER_TIMEOUT_MS = 60_000;
const run = promisify(execFile);

let loadingDefault: Promise<void> | undefined;

function isLoaded(name: string, profilesFile: string): boolean {
  try {
    return loadedProfiles(readFileSync(profilesFile, 'utf8')).has(name);
  } catch {
    return false;
  }
}

/** Loads the default profile once per process (again if someone unloaded it since). */
export async function ensureApparmorProfile(profile: string | undefined, root: string, profilesFile = PROFILES_FILE): Promise<void> {
  if (!profile || isLoaded(profile, profilesFile)) return;
  if (profile !== DEFAULT_APPARMOR_PROFILE) throw invalidArgument(`apparmor profile "${profile}" is not loaded (see ${profilesFile})`);
  loadingDefault ??= loadDefault(root).finally(() => {
    loadingDefault = undefined;
  });
  await loadingDefault;
}

async function loadDefault(root: string): Promise<void> {
  const dir = join(root, 'apparmor');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, DEFAULT_APPARMOR_PROFILE);
  // The includes exist wherever the apparmor package is installed; without them, the bare rules.
  await writeFile(file, defaultProfileText(DEFAULT_APPARMOR_PROFILE, existsSync('/etc/apparmor.d/tunables/global')));
  try {
    await run('apparmor_parser', ['-Kr', file], { timeout: PARSER_TIMEOUT_MS });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    const why = e.code === 'ENOENT' ? 'apparmor_parser not found (install the apparmor package)' : (e.stderr?.trim() || e.message);
    throw failedPrecondition(`cannot load the default AppArmor profile ${DEFAULT_APPARMOR_PROFILE}: ${why}`);
  }
}
