// `isulats doctor` as a whole against real runtimes: the rig's peer (containerd 1.6, or the
// daemon in the daemon run), an isulats daemon of its own (NRI through its admin service), and
// the embedded engine (leftovers); and the same runtime with a broken CNI dir, which must
// fail with exit code 1 and say so in the JSON CI reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../rig/cli.js';
import { conflistSubnet } from '../rig/cni-conf.js';
import { startIsulatsDaemon, type IsulatsDaemon } from '../rig/isulats-daemon.js';
import { rigEnv } from '../rig/rig-env.js';
import { makeTempDir, removeTempDir } from '../rig/temp-dir.js';

interface Report { ok: boolean; checks: Array<{ id: string; status: string; evidence: string; fix?: string }> }

async function doctor(args: string[]): Promise<{ code: number; report: Report; stderr: string }> {
  const r = await runCli(['--timeout', '20s', 'doctor', '-o', 'json', ...args], { timeoutMs: 90_000 });
  return { code: r.code, report: JSON.parse(r.stdout) as Report, stderr: r.stderr };
}

const check = (rep: Report, id: string) => rep.checks.find((c) => c.id === id);

describe('isulats doctor', () => {
  let dir: string;
  let daemon: IsulatsDaemon | undefined;

  beforeAll(async () => {
    dir = await makeTempDir('ist-doc-');
    daemon = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE });
  }, 120_000);

  afterAll(async () => {
    await daemon?.cleanup();
    await removeTempDir(dir);
  });

  it("checks the rig's runtime: endpoint, conditions, its own CNI config found through the runtime", async () => {
    const env = rigEnv();
    const { report, stderr } = await doctor(['-r', env.ISULATS_TEST_CRI_ENDPOINT]);
    expect(stderr).toBe('');
    expect(check(report, 'endpoint')).toMatchObject({ status: 'ok', evidence: expect.stringMatching(env.ISULATS_TEST_CRI_PEER === 'containerd' ? /containerd v?1\.6.*CRI v1/ : /isulats/) });
    expect(check(report, 'status.RuntimeReady')!.status).toBe('ok');
    expect(check(report, 'status.NetworkReady')!.status).toBe('ok');
    // The rig's conflist lives in a temp dir: only the runtime's own config (verbose Status / admin Info) points there.
    const cni = report.checks.filter((c) => c.id.startsWith('cni.conf:'));
    expect(cni).toHaveLength(1);
    const subnet = await conflistSubnet(env.ISULATS_TEST_CNI_CONF_DIR);
    expect(cni[0]).toMatchObject({ status: 'ok', evidence: expect.stringContaining(`subnet ${subnet}`) });
    expect(cni[0]!.evidence).toMatch(/bridge/);
    expect(check(report, 'disk.image')!.status).not.toBe('fail');
    expect(check(report, 'tools.runc')!.status).toBe('ok');
    expect(check(report, 'kernel.overlay')!.status).toBe('ok');
    if (env.ISULATS_TEST_CRI_PEER === 'containerd') expect(check(report, 'nri')).toMatchObject({ status: 'warn', evidence: expect.stringMatching(/^skipped/) });
  });

  it('fails with exit code 1 on a broken CNI dir and a missing plugin binary, with a fix for each', async () => {
    const conf = join(dir, 'net.d');
    await mkdir(conf, { recursive: true });
    await writeFile(join(conf, '10-broken.conflist'), '{"cniVersion":"1.0.0","name":"broken","plugins":[{"type":"bridge"},');
    await writeFile(join(conf, '20-nobin.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 'nobin', plugins: [{ type: 'bridge', bridge: 'cni-doc9', ipam: { type: 'host-local', subnet: '10.251.9.0/24' } }, { type: 'no-such-cni-plugin' }] }));
    const { code, report } = await doctor(['-r', rigEnv().ISULATS_TEST_CRI_ENDPOINT, '--cni-conf-dir', conf, '--cni-bin-dir', '/usr/lib/cni']);
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    expect(check(report, 'cni.conf:10-broken.conflist')).toMatchObject({ status: 'fail', evidence: expect.stringMatching(/not valid JSON/), fix: expect.any(String) });
    expect(check(report, 'cni.conf:20-nobin.conflist')).toMatchObject({ status: 'fail', evidence: 'plugin binary no-such-cni-plugin not found in /usr/lib/cni' });
  });

  it("checks an isulats daemon through its admin service: its dirs, NRI, and the text checklist", async () => {
    const r = await runCli(['--timeout', '20s', 'doctor', '-r', daemon!.endpoint], { timeoutMs: 90_000 });
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^✓ runtime endpoint: unix:\/\/\/tmp\/ist-d-\w+\/d\.sock: isulats /);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^[✓!] state file system: ${daemon!.state}`)));
    expect(lines).toContainEqual(expect.stringMatching(/^✓ NRI|^✓ NRI socket/));
    expect(lines).toContainEqual(expect.stringMatching(/^✓ CNI .*network \S+: bridge/));
    for (const l of lines.filter((x) => x.startsWith('✗'))) expect(lines[lines.indexOf(l) + 1]).toMatch(/^ {4}fix: /);
    expect(lines).toContainEqual('✓ stray mounts: none');
    expect(lines.at(-2)).toMatch(/^\d+ checks: \d+ failed, \d+ to look at$/);
    expect(r.code).toBe(lines.some((l) => l.startsWith('✗')) ? 1 : 0);
  });

  it("finds the embedded engine's leftovers: a mount under its root that no pod or container owns", async () => {
    const root = join(dir, 'root');
    const state = join(dir, 'state');
    const stray = join(root, 'overlay', 'f00dfeed'.repeat(8), 'merged');
    await mkdir(stray, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'ist-doctor-stray', stray]);
    try {
      const r = await runCli(['--root', root, '--state', state, '--timeout', '20s', 'doctor', '-o', 'json'], { timeoutMs: 90_000, env: { CONTAINER_RUNTIME_ENDPOINT: '', ISULATS_DAEMON_SOCKET: join(dir, 'none.sock') } });
      const report = JSON.parse(r.stdout) as Report;
      expect(check(report, 'endpoint')).toMatchObject({ status: 'ok', evidence: expect.stringMatching(/^embedded/) });
      expect(check(report, 'leftovers.mounts')).toMatchObject({ status: 'warn', evidence: `1: ${stray}` });
      expect(check(report, 'leftovers.netns')).toMatchObject({ status: 'ok' });
      expect(check(report, 'leftovers.conmon')).toMatchObject({ status: 'ok' });
      expect(check(report, 'disk.state')).toMatchObject({ evidence: expect.stringMatching(new RegExp(`^${state}: `)) });
    } finally {
      execFileSync('umount', [stray]);
    }
  });

  it('on a node-shaped daemon: names the driver and cgroup version, a state dir reached through a link as resolved, a noexec unpack dir, and a kubelet on the other driver', async () => {
    // /var/run -> /run as on Debian; the state the daemon is given goes through the link.
    await mkdir(join(dir, 'run'), { recursive: true });
    await symlink(join(dir, 'run'), join(dir, 'varrun'));
    const linked = join(dir, 'varrun', 'isulats');
    const node = await startIsulatsDaemon({ podSandboxImage: rigEnv().ISULATS_TEST_PAUSE, extraConfig: { state: linked } });
    const noexec = join(dir, 'noexec');
    await mkdir(noexec);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'noexec,size=1m', 'ist-doctor-noexec', noexec]);
    try {
      const kubelet = join(dir, 'kubelet-config.yaml');
      await writeFile(kubelet, 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: systemd\n');
      const r = await runCli(['--timeout', '20s', 'doctor', '-o', 'json', '-r', node.endpoint, '--kubelet-config', kubelet], { timeoutMs: 90_000, env: { ISULATS_SEA_DIR: join(noexec, 'sea') } });
      const report = JSON.parse(r.stdout) as Report;
      expect(r.code).toBe(1);
      const version = existsSync('/sys/fs/cgroup/cgroup.controllers') ? 2 : 1;
      expect(check(report, 'cgroup.driver')).toMatchObject({ status: 'fail', evidence: expect.stringMatching(new RegExp(`^runtime uses cgroupfs \\(.+\\), cgroup v${version}, kubelet systemd \\(${kubelet}\\)$`)) });
      expect(check(report, 'cgroup.parent')).toMatchObject({ status: 'ok', evidence: 'pods without a cgroup_parent go to /isulats (cgroupfs)' });
      expect(check(report, 'dirs.state')).toMatchObject({ status: 'ok', evidence: `${linked} is reached through a link: resolved to ${join(dir, 'run', 'isulats')} at start` });
      expect(check(report, 'sea.unpack')).toMatchObject({ status: 'fail', evidence: expect.stringContaining(`${join(noexec, 'sea')}: on a noexec mount`), fix: expect.stringMatching(/ISULATS_SEA_DIR/) });
      expect(check(report, 'leftovers.mounts')).toMatchObject({ status: 'ok' });
      // That daemon runs a pod with a pause container: runc gets the rootfs by its real path.
      const pod = join(dir, 'linked-pod.json');
      await writeFile(pod, JSON.stringify({ metadata: { name: 'linked-state-7c9e2f', namespace: 'doctor', uid: '5f0c3a1e-8b2d-4e6f-9a7c-1d3b5e7f9a2c', attempt: 0 }, linux: { security_context: { namespace_options: { network: 2 } } } }));
      const runp = await runCli(['-r', node.endpoint, 'runp', pod], { timeoutMs: 90_000 });
      expect(runp.code, runp.stderr).toBe(0);
      const id = runp.stdout.trim();
      expect((await runCli(['-r', node.endpoint, 'stopp', id])).code).toBe(0);
      expect((await runCli(['-r', node.endpoint, 'rmp', id])).code).toBe(0);
    } finally {
      execFileSync('umount', [noexec]);
      await node.cleanup();
    }
  });

  it("compares kubelet's driver as kubelet resolves it: config file, then kubeadm-flags.env, then /etc/default/kubelet", async () => {
    // The daemon runs the cgroupfs manager; a kubelet dir of kubeadm's shape in a temp dir.
    const kubeletDir = join(dir, 'kubelet');
    await mkdir(kubeletDir, { recursive: true });
    const defaults = join(dir, 'default-kubelet');
    const run = async () => {
      const r = await runCli(['--timeout', '20s', 'doctor', '-o', 'json', '-r', daemon!.endpoint], {
        timeoutMs: 90_000,
        env: { ISULATS_KUBELET_DIR: kubeletDir, ISULATS_KUBELET_ENV_FILES: defaults },
      });
      return check(JSON.parse(r.stdout) as Report, 'cgroup.driver')!;
    };
    await writeFile(join(kubeletDir, 'config.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\ncgroupDriver: cgroupfs\n');
    expect(await run()).toMatchObject({ status: 'ok', evidence: expect.stringMatching(new RegExp(`kubelet agrees \\(${join(kubeletDir, 'config.yaml')}\\)$`)) });
    await writeFile(join(kubeletDir, 'kubeadm-flags.env'), 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/isulats/isulats.sock --cgroup-driver=systemd"\n');
    expect(await run()).toMatchObject({
      status: 'fail',
      evidence: expect.stringMatching(new RegExp(`kubelet systemd \\(${join(kubeletDir, 'kubeadm-flags.env')} --cgroup-driver\\)$`)),
      fix: `make them agree: set --cgroup-driver=cgroupfs in ${join(kubeletDir, 'kubeadm-flags.env')}, or change the runtime's`,
    });
    await writeFile(defaults, 'KUBELET_EXTRA_ARGS=--cgroup-driver=cgroupfs\n');
    expect(await run()).toMatchObject({ status: 'ok', evidence: expect.stringMatching(new RegExp(`kubelet agrees \\(${defaults} --cgroup-driver\\)$`)) });
  });

  it('rejects a bad flag value with one line', async () => {
    const r = await runCli(['doctor', '-o', 'yaml']);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
