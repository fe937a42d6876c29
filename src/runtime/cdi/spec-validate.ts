// Checks a decoded CDI spec document and returns it typed, or throws one line
// saying what is wrong. As the reference's strict decoding and validation:
// unknown fields are refused, names are checked, a device must edit
// something, and a field newer than the declared cdiVersion is refused.
import { CDI_HOOK_NAMES, type CdiContainerEdits, type CdiHook, type CdiDevice, type CdiSpec } from './cdi-types.js';
import { classProblem, deviceNameProblem, parseKind, vendorProblem } from './qualified-name.js';

/** The versions read here, oldest first. 1.0.0 added no field; 1.1.0 (netDevices, schemata) is not read. */
export const CDI_VERSIONS = ['0.3.0', '0.4.0', '0.5.0', '0.6.0', '0.7.0', '0.8.0', '1.0.0'] as const;

class SpecProblem extends Error {}
const fail = (msg: string): never => {
  throw new SpecProblem(msg);
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function obj(v: unknown, where: string, known: readonly string[]): Obj {
  if (!isObj(v)) fail(`${where}: expected an object`);
  for (const k of Object.keys(v as Obj)) if (!known.includes(k)) fail(`${where}: unknown field "${k}"`);
  return v as Obj;
}
function str(v: unknown, where: string, required = false): string | undefined {
  if (v === undefined || v === null) return required ? fail(`${where}: required`) : undefined;
  if (typeof v !== 'string') fail(`${where}: expected a string`);
  if (required && v === '') fail(`${where}: must not be empty`);
  return v as string;
}
function strList(v: unknown, where: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) fail(`${where}: expected a list of strings`);
  return v as string[];
}
function uint(v: unknown, where: string, max = 2 ** 32 - 1): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) fail(`${where}: expected an integer from 0 to ${max}`);
  return v as number;
}
function strMap(v: unknown, where: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObj(v) || Object.values(v).some((s) => typeof s !== 'string')) fail(`${where}: expected a map of strings`);
  return v as Record<string, string>;
}
function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(`${where}: expected a list`);
  return v as unknown[];
}
function env(v: unknown, where: string): string[] | undefined {
  const out = strList(v, where);
  for (const e of out ?? []) if (e.indexOf('=') <= 0) fail(`${where}: invalid environment variable "${e}"`);
  return out;
}

function edits(v: unknown, where: string): CdiContainerEdits {
  if (v === undefined || v === null) return {};
  const o = obj(v, where, ['env', 'deviceNodes', 'hooks', 'mounts', 'intelRdt', 'additionalGids', 'netDevices']);
  if (o.netDevices !== undefined) fail(`${where}.netDevices: needs cdiVersion 1.1.0, which is not supported`);
  const out: CdiContainerEdits = {};
  const e = env(o.env, `${where}.env`);
  if (e) out.env = e;
  if (o.deviceNodes !== undefined) {
    out.deviceNodes = list(o.deviceNodes, `${where}.deviceNodes`).map((d, i) => {
      const w = `${where}.deviceNodes[${i}]`;
      const n = obj(d, w, ['path', 'hostPath', 'type', 'major', 'minor', 'fileMode', 'permissions', 'uid', 'gid']);
      const path = str(n.path, `${w}.path`, true)!;
      const type = str(n.type, `${w}.type`);
      if (type && !['b', 'c', 'u', 'p'].includes(type)) fail(`${w}: device "${path}": invalid type "${type}"`);
      const permissions = str(n.permissions, `${w}.permissions`);
      if (permissions && permissions !== 'none' && !/^[rwm]+$/.test(permissions)) fail(`${w}: device "${path}": invalid permissions "${permissions}"`);
      const node = { path, hostPath: str(n.hostPath, `${w}.hostPath`) || undefined, type: type || undefined, major: uint(n.major, `${w}.major`, 2 ** 31), minor: uint(n.minor, `${w}.minor`, 2 ** 31), fileMode: uint(n.fileMode, `${w}.fileMode`), permissions: permissions || undefined, uid: uint(n.uid, `${w}.uid`), gid: uint(n.gid, `${w}.gid`) };
      return Object.fromEntries(Object.entries(node).filter(([, x]) => x !== undefined)) as typeof node;
    });
  }
  if (o.mounts !== undefined) {
    out.mounts = list(o.mounts, `${where}.mounts`).map((m, i) => {
      const w = `${where}.mounts[${i}]`;
      const n = obj(m, w, ['hostPath', 'containerPath', 'options', 'type']);
      const mount = { hostPath: str(n.hostPath, `${w}.hostPath`, true)!, containerPath: str(n.containerPath, `${w}.containerPath`, true)!, options: strList(n.options, `${w}.options`), type: str(n.type, `${w}.type`) || undefined };
      return Object.fromEntries(Object.entries(mount).filter(([, x]) => x !== undefined)) as typeof mount;
    });
  }
  if (o.hooks !== undefined) {
    out.hooks = list(o.hooks, `${where}.hooks`).map((h, i) => {
      const w = `${where}.hooks[${i}]`;
      const n = obj(h, w, ['hookName', 'path', 'args', 'env', 'timeout']);
      const hookName = str(n.hookName, `${w}.hookName`, true)!;
      if (!(CDI_HOOK_NAMES as readonly string[]).includes(hookName)) fail(`${w}: invalid hook name "${hookName}"`);
      const hook = { hookName, path: str(n.path, `${w}.path`, true)!, args: strList(n.args, `${w}.args`), env: env(n.env, `${w}.env`), timeout: uint(n.timeout, `${w}.timeout`, 2 ** 31 - 1) };
      return Object.fromEntries(Object.entries(hook).filter(([, x]) => x !== undefined)) as unknown as CdiHook;
    });
  }
  if (o.intelRdt !== undefined && o.intelRdt !== null) {
    const w = `${where}.intelRdt`;
    const r = obj(o.intelRdt, w, ['closID', 'l3CacheSchema', 'memBwSchema', 'schemata', 'enableMonitoring']);
    if (r.schemata !== undefined || r.enableMonitoring !== undefined) fail(`${w}: schemata and enableMonitoring need cdiVersion 1.1.0, which is not supported`);
    const closID = str(r.closID, `${w}.closID`);
    if (closID && closID !== '/' && (closID.length >= 4096 || closID === '.' || closID === '..' || /[/\n]/.test(closID))) fail(`${w}: invalid closID`);
    const rdt = { closID: closID || undefined, l3CacheSchema: str(r.l3CacheSchema, `${w}.l3CacheSchema`) || undefined, memBwSchema: str(r.memBwSchema, `${w}.memBwSchema`) || undefined };
    out.intelRdt = Object.fromEntries(Object.entries(rdt).filter(([, x]) => x !== undefined));
  }
  if (o.additionalGids !== undefined && o.additionalGids !== null) {
    out.additionalGids = list(o.additionalGids, `${where}.additionalGids`).map((g, i) => uint(g, `${where}.additionalGids[${i}]`)!);
  }
  return out;
}

const isEmpty = (e: CdiContainerEdits) => !e.env?.length && !e.deviceNodes?.length && !e.hooks?.length && !e.mounts?.length && !e.additionalGids?.length && !e.intelRdt;

/** The oldest version that has every field the spec uses (the reference's minimum-version rules). */
export function requiredVersion(spec: CdiSpec): string {
  const all = [spec.containerEdits ?? {}, ...spec.devices.map((d) => d.containerEdits)];
  if (all.some((e) => e.intelRdt || e.additionalGids?.length)) return '0.7.0';
  const cls = parseKind(spec.kind)?.class ?? '';
  if (Object.keys(spec.annotations ?? {}).length || spec.devices.some((d) => Object.keys(d.annotations ?? {}).length) || cls.includes('.')) return '0.6.0';
  if (spec.devices.some((d) => /^[0-9]/.test(d.name)) || all.some((e) => e.deviceNodes?.some((n) => n.hostPath))) return '0.5.0';
  if (all.some((e) => e.mounts?.some((m) => m.type))) return '0.4.0';
  return '0.3.0';
}

/** Validates a decoded document; throws an Error with one line on the first problem. */
export function validateSpec(doc: unknown): CdiSpec {
  try {
    const o = obj(doc, 'spec', ['cdiVersion', 'kind', 'annotations', 'devices', 'containerEdits']);
    const version = str(o.cdiVersion, 'cdiVersion', true)!.replace(/^v/, '');
    if (!(CDI_VERSIONS as readonly string[]).includes(version)) fail(`cdiVersion "${o.cdiVersion}" is not supported (supported: ${CDI_VERSIONS.join(', ')})`);
    const kind = str(o.kind, 'kind', true)!;
    const k = parseKind(kind);
    if (!k) fail(`kind "${kind}": expected vendor.com/class`);
    const problem = vendorProblem(k!.vendor) ?? classProblem(k!.class);
    if (problem) fail(`kind "${kind}": ${problem}`);
    const seen = new Set<string>();
    const devices: CdiDevice[] = list(o.devices, 'devices').map((d, i) => {
      const n = obj(d, `devices[${i}]`, ['name', 'annotations', 'containerEdits']);
      const name = str(n.name, `devices[${i}].name`, true)!;
      const bad = deviceNameProblem(name);
      if (bad) fail(`devices[${i}]: ${bad}`);
      if (seen.has(name)) fail(`devices[${i}]: device "${name}" defined twice`);
      seen.add(name);
      const ce = edits(n.containerEdits, `device "${name}" containerEdits`);
      if (isEmpty(ce)) fail(`device "${name}": no container edits`);
      const annotations = strMap(n.annotations, `device "${name}" annotations`);
      return { name, containerEdits: ce, ...(annotations ? { annotations } : {}) };
    });
    if (!devices.length) fail('no devices');
    const annotations = strMap(o.annotations, 'annotations');
    const spec: CdiSpec = { cdiVersion: version, kind, devices, containerEdits: edits(o.containerEdits, 'containerEdits'), ...(annotations ? { annotations } : {}) };
    const min = requiredVersion(spec);
    if (CDI_VERSIONS.indexOf(min as never) > CDI_VERSIONS.indexOf(version as never)) fail(`the fields used need cdiVersion ${min} or later (declared ${version})`);
    return spec;
  } catch (err) {
    if (err instanceof SpecProblem) throw new Error(err.message);
    throw err;
  }
}
