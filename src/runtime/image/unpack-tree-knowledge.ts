// What one layer unpack knows about the tree it writes, so most entries cost only the syscalls
// that make them: a layer is unpacked into an empty directory, so nothing exists there that the
// unpack did not make. Paths are relative to the root, '/'-joined, '' being the root.
//
// Invariants: `dirs` holds only paths that are real directories (never symlinks) right now, and
// is closed under prefixes (a dir's parents are in it too), so forgetting a path that is in it
// forgets all below it by clearing the set. `made` holds every path the unpack made (it may hold
// paths removed since: a stale entry only costs an lstat). With `emptyRoot` false nothing is
// known to be absent.
export class UnpackTreeKnowledge {
  /** Real directories -> whether new entries in them may get a group other than ours (setgid). */
  private readonly dirs: Map<string, boolean>;
  private readonly made = new Set<string>();

  constructor(private readonly emptyRoot: boolean, rootSetgid: boolean) {
    this.dirs = new Map([['', rootSetgid]]);
  }

  /** True when every component of `parent` is a directory made or checked by this unpack. */
  knowsDirectory(parent: string[]): boolean {
    let path = '';
    for (const c of parent) {
      path = path ? `${path}/${c}` : c;
      if (!this.dirs.has(path)) return false;
    }
    return true;
  }

  /** `parent` (symlinks resolved) exists as directories, down from the root. */
  directoriesExist(parent: string[], setgidUnknown = true): void {
    let path = '';
    for (const c of parent) {
      path = path ? `${path}/${c}` : c;
      if (!this.dirs.has(path)) this.dirs.set(path, setgidUnknown);
      this.made.add(path);
    }
  }

  /** A directory at `path` with this mode (its setgid bit decides the group of entries in it). */
  directoryMade(path: string, mode: number): void {
    this.dirs.set(path, (mode & 0o2000) !== 0);
    this.made.add(path);
  }

  /** Something other than a directory now is at `path` (what was there is gone). */
  nonDirectoryMade(path: string): void {
    if (this.dirs.has(path)) {
      const root = this.dirs.get('')!;
      this.dirs.clear();
      this.dirs.set('', root);
    }
    this.made.add(path);
  }

  isDirectory(path: string): boolean {
    return this.dirs.has(path);
  }

  /** False only when nothing can be at `path`. */
  mayExist(path: string): boolean {
    return !this.emptyRoot || this.made.has(path);
  }

  /** True when new entries in `parent` get the creator's group (the dir is known and not setgid). */
  ownGroupIn(parent: string): boolean {
    return this.dirs.get(parent) === false;
  }
}
