// A device node on the host, as lstat tells (the reference reads it the same way).
import { lstatSync } from 'node:fs';
import type { HostDeviceInfo } from './cdi-types.js';

/** glibc's dev_t split: 12 bits of major, 20 of minor, spread over 64 bits. */
export function splitDev(rdev: bigint): { major: number; minor: number } {
  const major = ((rdev & 0xfff00n) >> 8n) | ((rdev & 0xfffff00000000000n) >> 32n);
  const minor = (rdev & 0xffn) | ((rdev & 0xffffff00000n) >> 12n);
  return { major: Number(major), minor: Number(minor) };
}

export function hostDevice(path: string): HostDeviceInfo | Error {
  let st;
  try {
    st = lstatSync(path, { bigint: true });
  } catch (err) {
    return new Error((err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such device node on the host' : (err as Error).message);
  }
  const type = st.isCharacterDevice() ? 'c' : st.isBlockDevice() ? 'b' : st.isFIFO() ? 'p' : undefined;
  if (!type) return new Error('not a device node');
  const { major, minor } = splitDev(st.rdev);
  return { type, major: type === 'p' ? 0 : major, minor: type === 'p' ? 0 : minor, fileMode: Number(st.mode & 0o777n) };
}
