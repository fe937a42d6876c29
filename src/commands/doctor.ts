import * as Flags from '@oclif/core/flags';
import { defineCommand } from '../cli/spec.js';

export default defineCommand({
  summary: 'Check the node and the container runtime, and say how to fix what is wrong',
  description: 'Prints a checklist: ✓ fine, ✗ failed (with a fix), ! worth a look or not checkable here. '
    + 'Exits 1 when any check failed. Works against any CRI runtime (--runtime-endpoint) and the embedded engine.',
  examples: [
    'isulats doctor -r unix:///run/containerd/containerd.sock',
    'isulats doctor -o json --path /var/lib/kubelet   # CI: exit code 1 on any ✗',
  ],
  flags: {
    output: Flags.option({ char: 'o', options: ['text', 'json'] as const, summary: 'Output format: text or json', default: 'text' })(),
    'cni-conf-dir': Flags.string({ summary: "CNI config dir to check (default: the runtime's, else /etc/cni/net.d)" }),
    'cni-bin-dir': Flags.string({ summary: "CNI plugin dir (repeatable; default: the runtime's, else /opt/cni/bin and /usr/lib/cni)", multiple: true }),
    path: Flags.string({ summary: 'Another file system to check for free space and inodes (repeatable)', multiple: true }),
    'kubelet-config': Flags.string({ summary: "kubelet's config file, for its cgroupDriver and cgroupRoot (default: /var/lib/kubelet/config.yaml; its --cgroup-driver in kubeadm-flags.env and /etc/default/kubelet wins)" }),
  },
  async run(ctx) {
    const [{ runDoctor }, { hostProbe }, { renderJson, renderText }, { kubeletPaths }] = await Promise.all([
      import('../doctor/run-doctor.js'), import('../doctor/host-probe.js'), import('../doctor/render.js'), import('../doctor/kubelet-settings.js'),
    ]);
    let backend;
    let openError: string | undefined;
    try {
      backend = await ctx.backend();
    } catch (err) {
      openError = (err as Error).message;
    }
    const results = await runDoctor({
      backend,
      target: backend?.target ?? ctx.globals.runtimeEndpoint ?? 'embedded engine',
      openError,
      probe: hostProbe,
      timeoutMs: ctx.globals.timeoutMs,
      cniConfDir: ctx.flags['cni-conf-dir'],
      cniBinDirs: ctx.flags['cni-bin-dir'],
      paths: ctx.flags.path ?? [],
      kubelet: kubeletPaths(process.env, ctx.flags['kubelet-config']),
    });
    ctx.print(ctx.flags.output === 'json' ? renderJson(results) : renderText(results));
    return results.some((r) => r.status === 'fail') ? 1 : 0;
  },
});
