import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CniManager } from '../../src/runtime/network/cni.js';
import { describeCniError, pluginStdin, podIps, toConfList } from '../../src/runtime/network/cni-result.js';
import { ProcessRunner } from '../../src/runtime/oci/process-runner.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

describe('CNI config and results', () => {
  it('wraps a single-plugin .conf into a list', () => {
    expect(toConfList({ cniVersion: '0.3.1', name: 'n', type: 'bridge', bridge: 'b0' }, 'x.conf')).toEqual({
      cniVersion: '0.3.1',
      name: 'n',
      plugins: [{ type: 'bridge', bridge: 'b0' }],
    });
  });

  it.each([
    [{ plugins: [{ type: 'x' }] }, /network name/],
    [{ name: 'n', plugins: [] }, /no plugins/],
    [{ name: 'n', plugins: [{}] }, /no type/],
    [{ name: 'n' }, /plugin type/],
  ])('rejects an invalid config %#', (raw, message) => {
    expect(() => toConfList(raw, 'f')).toThrow(message);
  });

  it('reads pod IPs from 1.0 and 0.2 results, IPv4 first', () => {
    expect(podIps({ ips: [{ address: 'fd00::5/64' }, { address: '10.1.2.3/24', gateway: '10.1.2.1' }] })).toEqual(['10.1.2.3', 'fd00::5']);
    expect(podIps({ ip4: { ip: '10.9.0.2/16' } })).toEqual(['10.9.0.2']);
    expect(podIps(undefined)).toEqual([]);
  });

  it('passes capability args only to plugins that declare them, with prevResult', () => {
    const list = { cniVersion: '1.0.0', name: 'net', plugins: [{ type: 'bridge' }, { type: 'portmap', capabilities: { portMappings: true } }] };
    const rc = { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: 'tcp' }] };
    expect(pluginStdin(list, list.plugins[0]!, rc)).toEqual({ type: 'bridge', cniVersion: '1.0.0', name: 'net' });
    const prev = { ips: [{ address: '10.0.0.2/24' }] };
    expect(pluginStdin(list, list.plugins[1]!, rc, prev)).toEqual({
      type: 'portmap',
      capabilities: { portMappings: true },
      cniVersion: '1.0.0',
      name: 'net',
      runtimeConfig: rc,
      prevResult: prev,
    });
  });

  it('describes plugin errors from the CNI error JSON', () => {
    expect(describeCniError('{"code":7,"msg":"failed to allocate","details":"range full"}', '')).toBe('failed to allocate: range full (code 7)');
    expect(describeCniError('', 'plain failure\n')).toBe('plain failure');
  });
});

describe('CniManager with fake plugins', () => {
  let dir: string;
  let cni: CniManager;
  const log = () => join(dir, 'calls.log');

  // Records its environment and stdin, and answers ADD with a result derived from its name.
  const plugin = (name: string, fail = false) => `#!/bin/sh
input=$(cat)
echo "${name} $CNI_COMMAND $CNI_CONTAINERID $CNI_NETNS $CNI_IFNAME $CNI_ARGS $CNI_PATH :: $input" >> ${'$'}LOGFILE
${fail ? 'echo \'{"code":11,"msg":"boom"}\'; exit 1' : ''}
if [ "$CNI_COMMAND" = ADD ]; then echo '{"cniVersion":"1.0.0","ips":[{"address":"10.20.30.4/24"}],"from":"${name}"}'; fi
`;

  beforeEach(async () => {
    dir = await makeTempDir('istcni-');
    await mkdir(join(dir, 'bin'));
    await mkdir(join(dir, 'conf'));
    for (const [name, fail] of [['first', false], ['second', false], ['broken', true]] as const) {
      await writeFile(join(dir, 'bin', name), plugin(name, fail));
      await chmod(join(dir, 'bin', name), 0o755);
    }
    process.env.LOGFILE = log();
    cni = new CniManager({ runner: new ProcessRunner(), confDir: join(dir, 'conf'), binDirs: [join(dir, 'nobin'), join(dir, 'bin')], cacheDir: join(dir, 'cache') });
  });

  afterEach(async () => {
    delete process.env.LOGFILE;
    await removeTempDir(dir);
  });

  it('reports why the network is not ready when there is no config', async () => {
    expect((await cni.loadConfig()).reason).toMatch(/no network config found/);
  });

  it('chains ADD with prevResult, caches it, and DELs in reverse from the cache after the config is gone', async () => {
    await writeFile(join(dir, 'conf', '10-test.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 'tnet', plugins: [{ type: 'first' }, { type: 'second', capabilities: { portMappings: true } }] }));
    const att = { containerId: 'abc', netnsPath: '/n/abc', ifName: 'eth0', args: { K8S_POD_NAME: 'p', K8S_POD_NAMESPACE: 'ns' }, runtimeConfig: { portMappings: [{ hostPort: 1 }] } };
    const result = await cni.add(att);
    expect(podIps(result)).toEqual(['10.20.30.4']);
    expect(result.from).toBe('second');
    const calls = (await readFile(log(), 'utf8')).trim().split('\n');
    expect(calls[0]).toMatch(/^first ADD abc \/n\/abc eth0 IgnoreUnknown=1;K8S_POD_NAME=p;K8S_POD_NAMESPACE=ns /);
    expect(calls[0]).not.toContain('prevResult');
    expect(calls[1]).toContain('"prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.20.30.4/24"}],"from":"first"}');
    expect(calls[1]).toContain('"runtimeConfig":{"portMappings":[{"hostPort":1}]}');
    await cni.check('abc');
    await writeFile(join(dir, 'conf', '10-test.conflist'), '{}');
    await cni.del('abc', '/n/abc', {});
    const after = (await readFile(log(), 'utf8')).trim().split('\n').slice(4);
    expect(after.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual(['second DEL', 'first DEL']);
    expect(after[0]).toContain('"from":"second"');
    expect(await cni.cached('abc')).toBeUndefined();
    await cni.del('abc', '/n/abc', {});
  });

  it('rolls back with DEL when a plugin in the chain fails, and says which one', async () => {
    await writeFile(join(dir, 'conf', '10-test.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 'tnet', plugins: [{ type: 'first' }, { type: 'broken' }] }));
    await expect(cni.add({ containerId: 'x', netnsPath: '/n/x', ifName: 'eth0', args: {}, runtimeConfig: {} })).rejects.toThrow(/plugin broken: boom \(code 11\)/);
    const calls = (await readFile(log(), 'utf8')).trim().split('\n').map((l) => l.split(' ').slice(0, 2).join(' '));
    expect(calls).toEqual(['first ADD', 'broken ADD', 'broken DEL', 'first DEL']);
    expect(await cni.cached('x')).toBeUndefined();
  });

  it('fails clearly when a plugin binary is missing', async () => {
    await writeFile(join(dir, 'conf', '10-test.conf'), JSON.stringify({ cniVersion: '1.0.0', name: 'tnet', type: 'missing' }));
    await expect(cni.add({ containerId: 'y', netnsPath: '/n/y', ifName: 'eth0', args: {}, runtimeConfig: {} })).rejects.toThrow(/"missing" not found/);
  });
});
