import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';

export default defineCommand({
  summary: "Start a debug container in a pod, sharing the target's network, IPC and PID namespaces (like kubectl debug)",
  description: `TARGET is a container ID or unique prefix, a pod ID or unique prefix, or pod-name/container-name.
The debug container joins the pod's network and IPC namespaces and, with --target-pid (the default
when TARGET is a container), the target container's PID namespace (CRI NamespaceMode TARGET), so
its processes show in ps and its root file system is /proc/<pid>/root. A runtime that refuses
TARGET gets the pod's namespaces instead, with a warning. The image is --image, else the client
config's debug-image, else busybox; it is pulled when absent unless --no-pull. With stdin a
terminal, a TTY is attached; otherwise stdin is passed through and the output printed. The debug
container is removed when its command ends, unless --keep.`,
  usage: 'debug TARGET [--image IMG] [--[no-]target-pid] [--keep] [--no-pull] [-- CMD [ARG...]]',
  examples: [
    'isulats debug 1f2e',
    'isulats debug web-5d8f9/nginx --image busybox -- sh -c "ps; ls /proc/1/root/etc/nginx"',
    'isulats debug --keep --no-target-pid 7c3a',
  ],
  // The command comes after `--`, so flags may follow TARGET (as in kubectl debug).
  strict: false,
  args: { target: Args.string({ required: true, description: 'Container or pod ID (or unique prefix), or pod-name/container-name' }) },
  flags: {
    image: Flags.string({ summary: 'Image of the debug container (default: the config key debug-image, else busybox)' }),
    'target-pid': Flags.boolean({ allowNo: true, summary: "Share the target container's PID namespace (default when TARGET is a container)" }),
    keep: Flags.boolean({ summary: 'Keep the debug container when its command ends, and print its ID' }),
    'no-pull': Flags.boolean({ summary: 'Do not pull the image when it is absent' }),
  },
  async run(ctx) {
    const { runDebug } = await import('../cli/debug/debug-session.js');
    return runDebug(ctx, {
      target: ctx.args.target,
      image: ctx.flags.image,
      targetPid: ctx.flags['target-pid'],
      keep: Boolean(ctx.flags.keep),
      noPull: Boolean(ctx.flags['no-pull']),
      command: ctx.argv,
    });
  },
});
