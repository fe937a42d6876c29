// Drift check: the committed descriptors, generated types and aliases under
// src/api/ are exactly what scripts/gen-proto.mjs makes from proto/ now.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDescriptor, type DescriptorName } from '../../src/api/proto.js';

const repo = path.resolve(import.meta.dirname, '../..');
const protoDir = path.join(repo, 'proto');

const ENTRIES: Record<DescriptorName, string> = {
  'cri-v1': 'runtime/v1/api.proto',
  'cri-v1alpha2': 'runtime/v1alpha2/api.proto',
  nri: 'nri/api.proto',
  ttrpc: 'ttrpc/ttrpc.proto',
};

function parse(file: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (target in protobuf.common) return target;
    const local = path.join(protoDir, target);
    return existsSync(local) ? local : protobuf.util.path.resolve(origin, target);
  };
  root.loadSync(path.join(protoDir, file), { keepCase: false });
  root.resolveAll();
  return root;
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), base) : [path.relative(base, path.join(dir, e.name))],
  ).sort();
}

describe('committed descriptors', () => {
  for (const [name, file] of Object.entries(ENTRIES) as [DescriptorName, string][]) {
    it(`${name}.json is what proto/${file} compiles to`, () => {
      expect(readDescriptor(name)).toEqual(JSON.parse(JSON.stringify(parse(file).toJSON())));
    });
  }

  it('uses lowerCamelCase field names', () => {
    const json = JSON.stringify(readDescriptor('cri-v1'));
    expect(json).toContain('"runtimeApiVersion"');
    expect(json).not.toContain('"runtime_api_version"');
  });
});

describe('generated TypeScript', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(path.join(os.tmpdir(), 'isu-gen-'));
    execFileSync(process.execPath, [path.join(repo, 'scripts/gen-proto.mjs'), '--out', out], { cwd: repo, stdio: 'pipe' });
  }, 60_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('regenerating writes exactly the committed files', () => {
    const fresh = path.join(out, 'src/api');
    const committed = path.join(repo, 'src/api');
    const freshFiles = listFiles(fresh);
    const committedFiles = listFiles(committed).filter((f) => freshFiles.includes(f) || f.startsWith('generated/') || f.startsWith('descriptors/'));
    expect(committedFiles).toEqual(freshFiles);
    for (const f of freshFiles) {
      expect(readFileSync(path.join(committed, f), 'utf8'), f).toBe(readFileSync(path.join(fresh, f), 'utf8'));
    }
  });

  it('aliases every runtime.v1 message and enum as X and XIn', () => {
    const cri = readFileSync(path.join(repo, 'src/api/cri.ts'), 'utf8');
    const ns = parse(ENTRIES['cri-v1']).lookup('runtime.v1') as protobuf.Namespace;
    const names: string[] = [];
    const walk = (n: protobuf.NamespaceBase, prefix: string) => {
      for (const c of n.nestedArray) {
        if (!(c instanceof protobuf.Type) && !(c instanceof protobuf.Enum)) continue;
        names.push(prefix + c.name);
        if (c instanceof protobuf.Type) walk(c, `${prefix}${c.name}_`);
      }
    };
    walk(ns, '');
    expect(names).toContain('SecurityProfile_ProfileType');
    for (const n of names) {
      expect(cri, n).toContain(`export type ${n} = `);
      expect(cri, n).toContain(`export type ${n}In = `);
    }
  });
});
