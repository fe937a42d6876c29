import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile, snakeToCamel } from '../../src/cli/config-loader.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'isu-cfg-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('snakeToCamel', () => {
  it.each([
    ['log_directory', 'logDirectory'],
    ['port_mappings', 'portMappings'],
    ['run_as_user', 'runAsUser'],
    ['hostname', 'hostname'],
    ['logDirectory', 'logDirectory'],
  ])('%s -> %s', (a, b) => expect(snakeToCamel(a)).toBe(b));
});

describe('loadConfigFile', () => {
  it('reads crictl-style snake_case JSON into lowerCamelCase fields', async () => {
    const p = file(
      'pod.json',
      JSON.stringify({
        metadata: { name: 'web', namespace: 'default', uid: 'u1', attempt: 1 },
        log_directory: '/tmp/logs',
        port_mappings: [{ container_port: 80, host_port: 8080, protocol: 'TCP' }],
        labels: { 'app_name': 'web', 'io.kubernetes.pod.name': 'web' },
        linux: { security_context: { namespace_options: { network: 2 } }, sysctls: { 'net.ipv4.ip_forward': '1' } },
      }),
    );
    const cfg = (await loadConfigFile(p, 'pod')) as any;
    expect(cfg.logDirectory).toBe('/tmp/logs');
    expect(cfg.portMappings).toEqual([{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }]);
    // Map keys are user data: kept exactly.
    expect(cfg.labels).toEqual({ app_name: 'web', 'io.kubernetes.pod.name': 'web' });
    expect(cfg.linux.securityContext.namespaceOptions.network).toBe(2);
    expect(cfg.linux.sysctls).toEqual({ 'net.ipv4.ip_forward': '1' });
  });

  it('reads lowerCamelCase YAML container configs', async () => {
    const p = file(
      'ctr.yaml',
      [
        'metadata:',
        '  name: box',
        'image:',
        '  image: busybox',
        'command: [sh, -c, "sleep 1000"]',
        'envs:',
        '  - key: A',
        '    value: b',
        'linux:',
        '  resources:',
        '    memoryLimitInBytes: 104857600',
        '    unified: {memory.high: "max"}',
        '  securityContext:',
        '    runAsUser: {value: 0}',
        'logPath: box.log',
      ].join('\n'),
    );
    const cfg = (await loadConfigFile(p, 'container')) as any;
    expect(cfg.metadata).toEqual({ name: 'box' });
    expect(cfg.command).toEqual(['sh', '-c', 'sleep 1000']);
    expect(cfg.envs).toEqual([{ key: 'A', value: Buffer.from('b') }]);
    expect(cfg.linux.resources.memoryLimitInBytes).toBe(104857600);
    expect(cfg.linux.resources.unified).toEqual({ 'memory.high': 'max' });
    expect(cfg.linux.securityContext.runAsUser).toEqual({ value: 0 });
    expect(cfg.logPath).toBe('box.log');
  });

  it('keeps int64 values beyond 2^53 exact', async () => {
    const cfg = (await loadConfigFile(file('big.json', '{"linux":{"resources":{"memory_limit_in_bytes":9007199254740993,"cpu_shares":2}}}'), 'container')) as any;
    expect(cfg.linux.resources).toEqual({ memoryLimitInBytes: '9007199254740993', cpuShares: 2 });
  });

  it.each([
    ['"memory_limit_in_bytes": "9223372036854775808"', /linux\.resources\.memoryLimitInBytes: 9223372036854775808 is out of range for int64/],
    ['"memory_limit_in_bytes": 1e23', /linux\.resources\.memoryLimitInBytes: 99999999999999991611392 is out of range for int64/],
    ['"cpu_shares": 18446744073709551616', /linux\.resources\.cpuShares: 18446744073709551616 is out of range for int64/],
    ['"memory_limit_in_bytes": 1.5', /linux\.resources\.memoryLimitInBytes: expected an integer \(int64\), got the number 1\.5/],
    ['"cpu_period": "soon"', /linux\.resources\.cpuPeriod: expected an integer \(int64\), got the string "soon"/],
    ['"hugepage_limits": [{"page_size": "2MB", "limit": -1}]', /linux\.resources\.hugepageLimits\[0\]\.limit: -1 is out of range for uint64/],
  ])('refuses %s, which protobuf encoding would wrap, naming the field', async (fields, message) => {
    await expect(loadConfigFile(file('range.json', `{"metadata":{"name":"x"},"linux":{"resources":{${fields}}}}`), 'container')).rejects.toThrow(message);
  });

  it('reads int64 given as decimal strings, as protobuf JSON allows', async () => {
    const cfg = (await loadConfigFile(file('str.json', '{"linux":{"resources":{"memory_limit_in_bytes":"9223372036854775807","cpu_quota":"-1"}}}'), 'container')) as any;
    expect(cfg.linux.resources).toEqual({ memoryLimitInBytes: '9223372036854775807', cpuQuota: -1 });
  });

  it.each<[string, string, 'pod' | 'container', string]>([
    ['a numeric pod name (YAML)', 'metadata:\n  name: 12345\n  namespace: default\n  uid: u1\n', 'pod', 'metadata.name: expected a string, got the number 12345'],
    ['a numeric pod name (JSON)', '{"metadata":{"name":12345,"namespace":"default","uid":"u1"}}', 'pod', 'metadata.name: expected a string, got the number 12345'],
    ['a numeric label value', '{"metadata":{"name":"p"},"labels":{"tier":1}}', 'pod', 'labels.tier: expected a string, got the number 1'],
    ['a host port written as a string', '{"port_mappings":[{"container_port":80,"host_port":"8080"}]}', 'pod', 'portMappings[0].hostPort: expected an integer (int32), got the string "8080"'],
    ['a port beyond int32', '{"port_mappings":[{"container_port":99999999999}]}', 'pod', 'portMappings[0].containerPort: 99999999999 is out of range for int32'],
    ['a negative attempt (uint32)', '{"metadata":{"name":"p","attempt":-1}}', 'pod', 'metadata.attempt: -1 is out of range for uint32'],
    ['an unknown protocol', '{"port_mappings":[{"container_port":80,"protocol":"TCPX"}]}', 'pod', 'portMappings[0].protocol: expected one of TCP, UDP, SCTP (or its number), got the string "TCPX"'],
    ['privileged as a string', '{"metadata":{"name":"c"},"linux":{"security_context":{"privileged":"true"}}}', 'container', 'linux.securityContext.privileged: expected true or false, got the string "true"'],
  ])('refuses %s in one line, as crictl\'s JSON decoding does', async (_what, text, kind, message) => {
    const p = file(`typed-${kind}-${text.length}.${text.startsWith('{') ? 'json' : 'yaml'}`, text);
    await expect(loadConfigFile(p, kind as 'pod')).rejects.toThrow(`load ${kind} config file: ${p}: ${message}`);
  });

  it('takes enums by name or number and 64-bit integers as decimal strings (protobuf JSON)', async () => {
    const pod = (await loadConfigFile(file('enum.json', '{"port_mappings":[{"container_port":80,"protocol":1},{"container_port":81,"protocol":"SCTP"}]}'), 'pod')) as any;
    expect(pod.portMappings).toEqual([{ containerPort: 80, protocol: 1 }, { containerPort: 81, protocol: 'SCTP' }]);
    const ctr = (await loadConfigFile(file('i64.json', '{"linux":{"resources":{"memory_limit_in_bytes":"268435456"}}}'), 'container')) as any;
    expect(ctr.linux.resources.memoryLimitInBytes).toBe(268435456);
  });

  it('drops unknown keys as Go decoding does', async () => {
    const cfg = (await loadConfigFile(file('u.json', '{"metadata":{"name":"x"},"bogus":1}'), 'pod')) as any;
    expect(cfg).toEqual({ metadata: { name: 'x' } });
  });

  it('names a missing file in one line', async () => {
    await expect(loadConfigFile(join(dir, 'nope.json'), 'pod')).rejects.toThrow(`load pod config file: config at ${join(dir, 'nope.json')} not found`);
  });

  it.each([
    ['broken.json', '{"metadata": {'],
    ['list.yaml', '- a\n- b\n'],
    ['empty.yaml', ''],
    ['badtype.json', '{"port_mappings": {"a": 1}}'],
  ])('refuses malformed %s with one line', async (name, text) => {
    const err = await loadConfigFile(file(name, text), 'pod').catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^load pod config file: /);
    expect((err as Error).message).not.toContain('\n');
  });
});
