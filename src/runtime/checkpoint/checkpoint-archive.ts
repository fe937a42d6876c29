// Packing a checkpoint's work dir into the archive kubelet asked for, and unpacking an archive
// for a restore. Unpacking goes through the layer unpacker: every entry lands inside the target
// dir, whatever its name or the links before it say. The archive holds every memory page of the
// checkpointed processes, so it is written 0600, as CRI-O and containerd write it.
import { createWriteStream, lstatSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { invalidArgument } from '../errors.js';
import { directoryEntries, tarStream } from '../image/tar-writer.js';
import { unpackLayerFile } from '../image/layer-unpack.js';
import { joinPath } from '../store/path-join.js';
import { CHECKPOINT_DIR, CONFIG_DUMP, SPEC_DUMP, type ConfigDump } from './archive-layout.js';

/** Writes `dir`'s tree as an uncompressed tar at `location` (through a temp file, renamed when whole). */
export async function packArchive(dir: string, location: string): Promise<void> {
  const temp = `${location}.${process.pid}.tmp`;
  try {
    await pipeline(Readable.from(tarStream(directoryEntries(dir))), createWriteStream(temp, { mode: 0o600 }));
    renameSync(temp, location);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Unpacks archive `file` into the new dir `dir`; refuses what is not a container checkpoint. */
export async function unpackArchive(file: string, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  try {
    await unpackLayerFile(file, dir);
  } catch (error) {
    throw invalidArgument(`${file} is not a readable checkpoint archive: ${(error as Error).message}`);
  }
  const images = lstatOrUndefined(joinPath(dir, CHECKPOINT_DIR));
  if (!images?.isDirectory()) throw invalidArgument(`${file} is not a container checkpoint: it has no ${CHECKPOINT_DIR}/ directory`);
  if (!lstatOrUndefined(joinPath(dir, CHECKPOINT_DIR, 'inventory.img'))?.isFile()) {
    throw invalidArgument(`${file} is not a complete checkpoint: ${CHECKPOINT_DIR}/inventory.img (CRIU's) is missing`);
  }
}

/** A JSON file of an unpacked archive: a regular file (never followed through a link), parsed. */
export function readArchiveJson<T>(dir: string, name: string, required = true): T | undefined {
  const path = joinPath(dir, name);
  const st = lstatOrUndefined(path);
  if (!st) {
    if (required) throw invalidArgument(`checkpoint archive has no ${name}`);
    return undefined;
  }
  if (!st.isFile()) throw invalidArgument(`checkpoint archive: ${name} is not a regular file`);
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch (error) {
    throw invalidArgument(`checkpoint archive: ${name} is not valid JSON (${(error as Error).message})`);
  }
}

export interface OciSpecDump {
  process?: { args?: string[]; env?: string[]; cwd?: string; terminal?: boolean };
  mounts?: Array<{ destination: string; type?: string; source?: string; options?: string[] }>;
  annotations?: Record<string, string>;
  [key: string]: unknown;
}

/** spec.dump and config.dump, which every runtime's archive has. */
export function readDumps(dir: string): { spec: OciSpecDump; config: ConfigDump } {
  const spec = readArchiveJson<OciSpecDump>(dir, SPEC_DUMP)!;
  const config = readArchiveJson<ConfigDump>(dir, CONFIG_DUMP)!;
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) throw invalidArgument(`checkpoint archive: ${SPEC_DUMP} is not an OCI spec`);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw invalidArgument(`checkpoint archive: ${CONFIG_DUMP} is not a container config`);
  return { spec, config };
}

function lstatOrUndefined(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
