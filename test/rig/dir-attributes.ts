// What tests read of a directory's place on disk: chattr's attribute letters (lsattr) and the
// file system's type, e.g. to check ext4's top-directory flag (T) where the file system has it.
import { execFileSync } from 'node:child_process';

/** chattr's attribute letters for a directory, e.g. "-------------Te-------". */
export const dirAttributes = (path: string): string => execFileSync('lsattr', ['-d', path], { encoding: 'utf8' }).split(' ')[0]!;

/** The file system type as `stat -f` names it ("ext2/ext3" for ext4 too, "tmpfs"...). */
export const fileSystemOf = (path: string): string => execFileSync('stat', ['-f', '-c', '%T', path], { encoding: 'utf8' }).trim();
