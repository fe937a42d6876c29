// path.join for the engine's hot paths. Node's join normalises character by character in
// JavaScript, which under the --lite-mode the daemon then ran with (interpreted) costs about 0.1 ms a call on a
// busy node, and a CreateContainer or RemoveContainer makes dozens (record, lock, snapshot, trash
// and bundle paths). The engine's own paths are already normal (a root, fixed names, IDs), so
// the parts joined with '/' are the answer; anything else goes to path.join.
import { join } from 'node:path';

// What path.join would change: a doubled slash, a '.' or '..' segment, a trailing slash.
const NEEDS_NORMALISING = /\/\/|(?:^|\/)\.\.?(?:\/|$)|.\/$/;

/** path.join(...parts), the same answer for every input. */
export function joinPath(...parts: string[]): string {
  const joined = parts.join('/');
  if (parts.includes('') || NEEDS_NORMALISING.test(joined)) return join(...parts);
  return joined;
}
