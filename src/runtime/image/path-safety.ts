// Path safety for layer extraction: every write lands inside the snapshot
// root, whatever entry names or symlinks in the layer say. Names with `..`
// are refused outright; symlinks met on the way are resolved as if the root
// were `/` (absolute targets restart at the root), and one that climbs above
// the root refuses the layer.
import { lstatSync, readlinkSync } from 'node:fs';
import { IsulatsError } from '../errors.js';

export class PathEscapeError extends IsulatsError {
  constructor(message: string) {
    super('invalid-argument', message);
    this.name = 'PathEscapeError';
  }
}

/** Splits a tar entry name into clean components; refuses `..` and empty names. Leading `/` and `./` are dropped. */
export function entryComponents(name: string): string[] {
  // One loop, no callbacks: called per layer entry, in a daemon without an optimising compiler.
  if (name.includes('\0')) throw new PathEscapeError(`layer entry "${name}" contains a NUL byte`);
  const parts: string[] = [];
  for (const c of name.split('/')) {
    if (c === '' || c === '.') continue;
    if (c === '..') throw new PathEscapeError(`layer entry "${name}" climbs out of the layer with ".."`);
    parts.push(c);
  }
  return parts;
}

const MAX_LINKS = 40;

/** Filesystem probe, injectable so the logic can be unit-tested without a disk. */
export interface FsProbe {
  /** 'symlink' with its target, 'dir', 'other', or 'missing'. */
  probe(path: string): { kind: 'symlink'; target: string } | { kind: 'dir' | 'other' | 'missing' };
}

export const realFs: FsProbe = {
  probe(path) {
    try {
      const st = lstatSync(path);
      if (st.isSymbolicLink()) return { kind: 'symlink', target: readlinkSync(path) };
      return { kind: st.isDirectory() ? 'dir' : 'other' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw error;
    }
  },
};

/**
 * Resolves `components` below `root`, following symlinks inside the root for
 * every component but the last (which is the entry itself and is never
 * followed). Returns the components of the resolved path relative to root,
 * and how many of its leading components exist on disk.
 */
export function resolveInRoot(root: string, components: string[], fs: FsProbe = realFs): string[] {
  const resolved: string[] = [];
  const queue = components.slice(0, -1);
  const last = components[components.length - 1];
  let links = 0;
  let missing = false;
  while (queue.length) {
    const c = queue.shift()!;
    if (c === '' || c === '.') continue;
    if (c === '..') {
      if (resolved.length === 0) throw new PathEscapeError(`a symlink in the layer points above its root (via "${components.join('/')}")`);
      resolved.pop();
      continue;
    }
    if (missing) {
      resolved.push(c);
      continue;
    }
    const probe = fs.probe(`${root}/${[...resolved, c].join('/')}`);
    if (probe.kind === 'symlink') {
      if (++links > MAX_LINKS) throw new PathEscapeError(`too many symlinks resolving "${components.join('/')}"`);
      if (probe.target.startsWith('/')) resolved.length = 0;
      queue.unshift(...probe.target.split('/'));
      continue;
    }
    if (probe.kind === 'other') {
      throw new IsulatsError('invalid-argument', `layer entry "${components.join('/')}" has a parent that is not a directory`);
    }
    if (probe.kind === 'missing') missing = true;
    resolved.push(c);
  }
  if (last !== undefined) resolved.push(last);
  return resolved;
}
