// Holds proto/*.proto to the wire tables (proto/reference/*.tsv, copied from
// the shared reference) in both directions: every service, rpc, message,
// field and enum value the table names is in the .proto exactly as written,
// and the .proto declares nothing the table does not.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
const protoDir = path.join(repo, 'proto');
const tableDir = path.join(protoDir, 'reference');
const sharedDir = path.resolve(repo, '../shared/reference');

const SCALARS = new Set([
  'double', 'float', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64',
  'fixed32', 'fixed64', 'sfixed32', 'sfixed64', 'bool', 'string', 'bytes',
]);

const SETS = [
  { table: 'cri-v1.tsv', proto: 'runtime/v1/api.proto' },
  { table: 'cri-v1alpha2.tsv', proto: 'runtime/v1alpha2/api.proto' },
  { table: 'nri-latest.tsv', proto: 'nri/api.proto' },
  { table: 'ttrpc.tsv', proto: 'ttrpc/ttrpc.proto' },
];

interface Table {
  pkg: string;
  /** One line per fact, types resolved to package-relative names. */
  facts: Set<string>;
}

/** Resolves a type name the way protoc does: innermost enclosing scope first. */
function resolveTableType(type: string, scope: string, declared: Set<string>): string {
  if (SCALARS.has(type)) return type;
  const parts = scope.split('.');
  for (let i = parts.length; i >= 0; i--) {
    const candidate = [...parts.slice(0, i), type].join('.');
    if (declared.has(candidate)) return candidate;
  }
  return type; // fully qualified, outside the package (google.rpc.Status)
}

function readTable(file: string): Table {
  return parseTable(readFileSync(path.join(tableDir, file), 'utf8'), file);
}

function parseTable(text: string, file: string): Table {
  const rows = text
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'))
    .map((l) => l.split('\t'));
  const declared = new Set(rows.filter((r) => r[0] === 'message' || r[0] === 'enum').map((r) => r[1]));
  const facts = new Set<string>();
  let pkg = '';
  for (const r of rows) {
    switch (r[0]) {
      case 'package':
        pkg = r[1];
        break;
      case 'rpc':
        facts.add(['rpc', r[1], r[2], resolveTableType(r[3], '', declared), resolveTableType(r[4], '', declared), r[5], r[6]].join(' '));
        break;
      case 'message':
        facts.add(`message ${r[1]}`);
        break;
      case 'enum':
        facts.add(`enum ${r[1]} ${r[2]} ${r[3]}`);
        break;
      case 'field': {
        const [, msg, name, num, type, label] = r;
        let l = label;
        if (label.startsWith('map<')) {
          const [k, v] = label.slice(4, -1).split(',');
          l = `map<${k},${resolveTableType(v, msg, declared)}>`;
        }
        const t = type === '-' ? '-' : resolveTableType(type, msg, declared);
        facts.add(`field ${msg} ${name} ${num} ${t} ${l}`);
        break;
      }
      default:
        throw new Error(`${file}: unknown line kind ${r[0]}`);
    }
  }
  return { pkg, facts };
}

function loadProto(file: string): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (origin, target) => {
    if (target in protobuf.common) return target;
    const local = path.join(protoDir, target);
    return existsSync(local) ? local : protobuf.util.path.resolve(origin, target);
  };
  root.loadSync(path.join(protoDir, file), { keepCase: true });
  root.resolveAll();
  return root;
}

/** The same facts, read back from a parsed .proto (everything under `pkg`). */
function protoFacts(root: protobuf.Root, pkg: string): Set<string> {
  const facts = new Set<string>();
  const base = root.lookup(pkg);
  if (!(base instanceof protobuf.Namespace)) throw new Error(`package ${pkg} missing`);
  const rel = (t: protobuf.ReflectionObject) => {
    const full = t.fullName.replace(/^\./, '');
    return full.startsWith(`${pkg}.`) ? full.slice(pkg.length + 1) : full;
  };
  const fieldType = (f: protobuf.Field) => (f.resolvedType ? rel(f.resolvedType) : f.type);
  const walk = (ns: protobuf.NamespaceBase) => {
    for (const child of ns.nestedArray) {
      if (child instanceof protobuf.Service) {
        for (const m of child.methodsArray) {
          m.resolve();
          facts.add(['rpc', child.name, m.name, rel(m.resolvedRequestType!), rel(m.resolvedResponseType!),
            m.requestStream ? 'client-stream' : '-', m.responseStream ? 'server-stream' : '-'].join(' '));
        }
      } else if (child instanceof protobuf.Type) {
        facts.add(`message ${rel(child)}`);
        for (const f of child.fieldsArray) {
          let label = '-';
          let type = fieldType(f);
          if (f instanceof protobuf.MapField) {
            label = `map<${f.keyType},${type}>`;
            type = '-';
          } else if (f.repeated) label = 'repeated';
          else if (f.options?.proto3_optional) label = 'optional';
          else if (f.partOf) label = `oneof:${f.partOf.name}`;
          facts.add(`field ${rel(child)} ${f.name} ${f.id} ${type} ${label}`);
        }
        walk(child);
      } else if (child instanceof protobuf.Enum) {
        for (const [name, value] of Object.entries(child.values)) facts.add(`enum ${rel(child)} ${name} ${value}`);
      } else if (child instanceof protobuf.Namespace) {
        facts.add(`namespace ${rel(child)}`); // a stray sub-package is an extra
        walk(child);
      }
    }
  };
  walk(base);
  return facts;
}

function diff(table: Set<string>, proto: Set<string>) {
  return {
    missing: [...table].filter((f) => !proto.has(f)).sort(),
    extra: [...proto].filter((f) => !table.has(f)).sort(),
  };
}

describe('proto files match the wire tables', () => {
  for (const set of SETS) {
    it(`${set.proto} declares exactly what ${set.table} lists`, () => {
      const table = readTable(set.table);
      const text = readFileSync(path.join(protoDir, set.proto), 'utf8');
      expect(text).toMatch(/^syntax = "proto3";$/m);
      expect(text).toMatch(new RegExp(`^package ${table.pkg.replace(/\./g, '\\.')};$`, 'm'));
      const result = diff(table.facts, protoFacts(loadProto(set.proto), table.pkg));
      expect(result).toEqual({ missing: [], extra: [] });
      expect(table.facts.size).toBeGreaterThan(10);
    });
  }

  it('the NRI proto contains everything nri-v0.11.tsv lists', () => {
    const old = readTable('nri-v0.11.tsv');
    const { missing } = diff(old.facts, protoFacts(loadProto('nri/api.proto'), old.pkg));
    expect(missing).toEqual([]);
  });

  it('google.rpc.Status has code, message and details as the ttrpc envelope expects', () => {
    const facts = protoFacts(loadProto('ttrpc/ttrpc.proto'), 'google.rpc');
    expect([...facts].sort()).toEqual([
      'field Status code 1 int32 -',
      'field Status details 3 google.protobuf.Any repeated',
      'field Status message 2 string -',
      'message Status',
    ]);
  });

  // Skipped only where ../shared is absent (a clone outside the workspace): the copies are then all there is.
  it.skipIf(!existsSync(sharedDir))('the copied tables equal the shared reference', () => {
    for (const file of ['README.md', ...SETS.map((s) => s.table), 'nri-v0.11.tsv']) {
      expect(readFileSync(path.join(tableDir, file), 'utf8'), file).toBe(readFileSync(path.join(sharedDir, file), 'utf8'));
    }
  });
});

describe('the comparison catches mistakes', () => {
  it('reads optional, oneof and nested-type labels the way the tables write them', () => {
    const table = parseTable([
      'package\tp',
      'message\tM',
      'field\tM\ta\t1\tstring\toptional',
      'field\tM\tc\t3\tint32\toneof:g',
      'field\tM\td\t4\tM.E\toneof:g',
      'field\tM\tm\t5\t-\tmap<string,Inner>',
      'message\tM.Inner',
      'field\tM.Inner\tk\t1\tE\t-',
      'enum\tM.E\tX\t0',
    ].join('\n'), 'inline');
    const parsed = protobuf.parse(
      'syntax = "proto3"; package p; message M { message Inner { E k = 1; } enum E { X = 0; }' +
        ' optional string a = 1; oneof g { int32 c = 3; E d = 4; } map<string, Inner> m = 5; }',
      { keepCase: true },
    ).root;
    parsed.resolveAll();
    expect(diff(table.facts, protoFacts(parsed, 'p'))).toEqual({ missing: [], extra: [] });
    const wrong = protobuf.parse('syntax = "proto3"; package p; message M { message Inner { M.E k = 1; } enum E { X = 0; }' +
      ' string a = 1; int32 c = 3; oneof h { E d = 4; } map<string, Inner> m = 5; }', { keepCase: true }).root;
    wrong.resolveAll();
    expect(diff(table.facts, protoFacts(wrong, 'p')).extra).toEqual([
      'field M a 1 string -',
      'field M c 3 int32 -',
      'field M d 4 M.E oneof:h',
    ]);
  });

  const table = readTable('cri-v1.tsv');
  const mutated = () => protobuf.Root.fromJSON(loadProto('runtime/v1/api.proto').toJSON());
  const check = (root: protobuf.Root) => {
    root.resolveAll();
    return diff(table.facts, protoFacts(root, 'runtime.v1'));
  };

  it('reports a wrong field number', () => {
    const root = mutated();
    const type = root.lookupType('runtime.v1.VersionResponse');
    const field = type.fields.runtime_name;
    type.remove(field);
    type.add(new protobuf.Field('runtime_name', 9, 'string'));
    expect(check(root)).toEqual({
      missing: ['field VersionResponse runtime_name 2 string -'],
      extra: ['field VersionResponse runtime_name 9 string -'],
    });
  });

  it('reports a wrong type and a lost repeated', () => {
    const root = mutated();
    const type = root.lookupType('runtime.v1.DNSConfig');
    type.remove(type.fields.servers);
    type.add(new protobuf.Field('servers', 1, 'bytes'));
    const result = check(root);
    expect(result.missing).toEqual(['field DNSConfig servers 1 string repeated']);
    expect(result.extra).toEqual(['field DNSConfig servers 1 bytes -']);
  });

  it('reports an extra field, message, enum value and rpc', () => {
    const root = mutated();
    root.lookupType('runtime.v1.VersionRequest').add(new protobuf.Field('bogus', 7, 'int64'));
    (root.lookup('runtime.v1') as protobuf.Namespace).add(new protobuf.Type('Bogus'));
    root.lookupEnum('runtime.v1.Protocol').add('QUIC', 9);
    root.lookupService('runtime.v1.ImageService').add(new protobuf.Method('Bogus', 'rpc', 'VersionRequest', 'VersionResponse'));
    expect(check(root)).toEqual({
      missing: [],
      extra: [
        'enum Protocol QUIC 9',
        'field VersionRequest bogus 7 int64 -',
        'message Bogus',
        'rpc ImageService Bogus VersionRequest VersionResponse - -',
      ],
    });
  });

  it('reports a missing rpc and a changed map value type', () => {
    const root = mutated();
    const svc = root.lookupService('runtime.v1.RuntimeService');
    svc.remove(svc.methods.Version);
    const sandboxConfig = root.lookupType('runtime.v1.PodSandboxConfig');
    const labels = sandboxConfig.fields.labels;
    sandboxConfig.remove(labels);
    sandboxConfig.add(new protobuf.MapField('labels', labels.id, 'string', 'bytes'));
    const result = check(root);
    expect(result.missing).toContain('rpc RuntimeService Version VersionRequest VersionResponse - -');
    expect(result.missing.some((f) => f.startsWith('field PodSandboxConfig labels'))).toBe(true);
    expect(result.extra.some((f) => f.startsWith('field PodSandboxConfig labels') && f.includes('map<string,bytes>'))).toBe(true);
  });
});
