import { describe, expect, it } from 'vitest';
import {
  containerStatusDoc,
  goMapString,
  inspectOutputFormat,
  listOutputFormat,
  protoOrdered,
  renderCrictl,
  renderStatusDoc,
  statusDocs,
  statusInfoDoc,
} from '../../src/cli/status-output.js';
import type * as cri from '../../src/api/cri.js';

describe('statusInfoDoc', () => {
  it("sorts every level's keys as crictl 1.34's Go maps do, parsing info objects and unquoting other values", () => {
    const doc = statusInfoDoc({ id: 'x', metadata: { name: 'n', attempt: 0 }, createdAt: '1' }, { zeta: 'plain text', info: '{"pid":12,"b":[1]}', q: '"quoted"', list: '[1]' });
    expect(Object.keys(doc)).toEqual(['info', 'list', 'q', 'status', 'zeta']);
    expect(Object.keys(doc.status as object)).toEqual(['createdAt', 'id', 'metadata']);
    expect(Object.keys((doc.status as any).metadata)).toEqual(['attempt', 'name']);
    expect(Object.keys(doc.info as object)).toEqual(['b', 'pid']);
    expect(doc.zeta).toBe('plain text');
    expect(doc.q).toBe('quoted');
    expect(doc.list).toBe('[1]');
  });

  it('prints one status as a document and several as an array, escaping as Go does', async () => {
    const one = statusInfoDoc({ id: 'a<b>&' }, {});
    expect(await renderStatusDoc(statusDocs([one]), 'json')).toBe('{\n  "status": {\n    "id": "a\\u003cb\\u003e\\u0026"\n  }\n}\n');
    expect(JSON.parse(await renderStatusDoc(statusDocs([one, one]), 'json'))).toHaveLength(2);
  });
});

describe('containerStatusDoc', () => {
  const base = { id: 'c', createdAt: '1700000000000000000', startedAt: '0', finishedAt: '0', labels: {}, annotations: {} } as unknown as cri.ContainerStatus;

  it('uses Go zero time for a never-started container', async () => {
    const doc = await containerStatusDoc({ ...base, state: 'CONTAINER_CREATED' });
    expect(doc.startedAt).toBe('0001-01-01T00:00:00Z');
    expect(doc.finishedAt).toBe('0001-01-01T00:00:00Z');
    expect(doc.createdAt).toMatch(/^2023-11-1\dT/);
  });

  it("names the default stop signal as upstream's enum does (RUNTIME_DEFAULT), as crictl 1.34 prints it", async () => {
    expect((await containerStatusDoc({ ...base, state: 'CONTAINER_RUNNING', stopSignal: 'SIGNAL_RUNTIME_DEFAULT' })).stopSignal).toBe('RUNTIME_DEFAULT');
    expect((await containerStatusDoc({ ...base, state: 'CONTAINER_RUNNING', stopSignal: 'SIGNAL_SIGTERM' })).stopSignal).toBe('SIGTERM');
  });

  it('sets finishedAt once exited', async () => {
    const doc = await containerStatusDoc({ ...base, state: 'CONTAINER_EXITED', startedAt: '1700000001000000000', finishedAt: '1700000002000000000' });
    expect(doc.finishedAt).not.toBe('0001-01-01T00:00:00Z');
  });
});

describe('protoOrdered', () => {
  it('orders keys by field declaration, maps and lists included, and drops undeclared keys', async () => {
    const decoded = { labels: { b: '1' }, annotations: {}, id: 'p', metadata: { uid: 'u', name: 'n', namespace: 'ns', attempt: 0 }, state: 'SANDBOX_READY', createdAt: '1', runtimeHandler: '', _virtual: 'x' };
    const out = (await protoOrdered('ListPodSandboxResponse', { items: [decoded] })) as any;
    expect(Object.keys(out.items[0])).toEqual(['id', 'metadata', 'state', 'createdAt', 'labels', 'annotations', 'runtimeHandler']);
    expect(Object.keys(out.items[0].metadata)).toEqual(['name', 'uid', 'namespace', 'attempt']);
  });
});

describe('renderCrictl', () => {
  const doc = { items: [{ id: 'a', labels: {}, createdAt: '1700000000000000000', metadata: null }] };

  it('prints JSON indented by two with one newline', async () => {
    expect(await renderCrictl(doc, 'json')).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it('prints YAML as sigs.k8s.io/yaml does, plus a blank line', async () => {
    expect(await renderCrictl(doc, 'yaml')).toBe('items:\n- createdAt: "1700000000000000000"\n  id: a\n  labels: {}\n  metadata: null\n\n');
  });

  it('quotes what YAML 1.1 would read as a timestamp or a boolean, as yaml.v2 does', async () => {
    expect(await renderCrictl({ t: '0001-01-01T00:00:00Z', b: 'on', s: 'plain' }, 'yaml')).toBe('b: "on"\ns: plain\nt: "0001-01-01T00:00:00Z"\n\n');
  });

  it('runs a go-template and ends with a newline', async () => {
    expect(await renderCrictl(doc, 'go-template', '{{range .items}}{{.id}}{{end}}')).toBe('a\n');
    await expect(renderCrictl(doc, 'go-template')).rejects.toThrow(/--template is required/);
  });
});

describe('output flags and Go map printing', () => {
  it('validates -o as crictl words it', () => {
    expect(listOutputFormat(undefined)).toBe('table');
    expect(() => listOutputFormat('xml')).toThrow('unsupported output format "xml"');
    expect(inspectOutputFormat('')).toBe('json');
    expect(() => inspectOutputFormat('xml')).toThrow('output option cannot be xml');
  });

  it('prints map[k:v] with sorted keys', () => {
    expect(goMapString({ b: '2', a: '1' })).toBe('map[a:1 b:2]');
    expect(goMapString({})).toBe('map[]');
  });
});
