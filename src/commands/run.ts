// `run` in two forms: crictl's (`run [--no-pull] CONTAINER-CONFIG POD-CONFIG`:
// pull, runp, create, start) and isula's (`run [-it] [-d] [--rm] IMAGE [CMD...]`:
// a pod and a container in one step, attached unless -d).
import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { existsSync, statSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import { defineCommand } from '../cli/spec.js';
import type { CommandContext } from '../cli/context.js';
import { loadConfigFile } from '../cli/config-loader.js';
import { runStreamSession } from '../cli/stream-session.js';
import { alreadyExists, invalidArgument } from '../runtime/errors.js';
import { isDnsHostname } from '../runtime/sandbox/pod-hostname.js';
import { pullAuth } from './create.js';
import { POD_NAME_LABEL, POD_NAMESPACE_LABEL } from '../cli/filters.js';
import type * as cri from '../api/cri.js';
import type { CriBackend } from '../client/backend.js';

export default defineCommand({
  summary: 'Run a container in a new pod: crictl form (config files) or isula form (image and command)',
  usage: 'run [--no-pull] CONTAINER-CONFIG POD-CONFIG | run [-it] [-d] [--rm] [--name NAME] IMAGE [CMD [ARG...]]',
  examples: ['isulats run container-config.json pod-config.json', 'isulats run -it busybox sh', 'isulats run -d --name web busybox httpd -f -p 80'],
  passThroughAfterArgs: 1,
  strict: false,
  args: { first: Args.string({ required: true, description: 'Container config file, or an image reference' }) },
  flags: {
    'no-pull': Flags.boolean({ summary: 'Do not pull the image (crictl form)' }),
    'with-pull': Flags.boolean({ summary: 'Pull the image even when pull-image-on-create is false' }),
    creds: Flags.string({ summary: 'USERNAME[:PASSWORD] for the registry' }),
    auth: Flags.string({ summary: "base64 'USERNAME[:PASSWORD]' for the registry" }),
    runtime: Flags.string({ char: 'r', summary: 'Runtime handler for the pod' }),
    interactive: Flags.boolean({ char: 'i', summary: 'Keep stdin open (isula form)' }),
    tty: Flags.boolean({ char: 't', summary: 'Allocate a TTY (isula form)' }),
    detach: Flags.boolean({ char: 'd', summary: 'Print the container ID and return (isula form)' }),
    rm: Flags.boolean({ summary: 'Remove the pod when the container exits (isula form)' }),
    name: Flags.string({ summary: 'Container name (isula form; default: a random one)' }),
    env: Flags.string({ char: 'e', multiple: true, multipleNonGreedy: true, summary: 'Environment variable K=V (isula form)' }),
    label: Flags.string({ multiple: true, multipleNonGreedy: true, summary: 'Pod label k=v (isula form)' }),
  },
  async run(ctx) {
    const first = ctx.args.first as string;
    const isFile = existsSync(first) && statSync(first).isFile();
    return isFile ? runFromConfigs(ctx, first, ctx.argv[0]) : runImage(ctx, first, ctx.argv);
  },
});

async function runFromConfigs(ctx: CommandContext, containerFile: string, podFile: string | undefined): Promise<void> {
  if (!podFile) throw invalidArgument('run: give both a container config and a pod config file');
  const config = await loadConfigFile(containerFile, 'container');
  const sandboxConfig = await loadConfigFile(podFile, 'pod');
  const backend = await ctx.backend();
  if (!ctx.flags['no-pull']) await pull(backend, config.image?.image ?? '', ctx, sandboxConfig);
  const podId = (await backend.runPodSandbox({ config: sandboxConfig, runtimeHandler: ctx.flags.runtime ?? '' })).podSandboxId;
  const containerId = await createAndStart(backend, podId, config, sandboxConfig);
  ctx.print(`${containerId}\n`);
}

async function runImage(ctx: CommandContext, image: string, command: string[]): Promise<number> {
  const f = ctx.flags;
  if (f.tty && !f.interactive) throw invalidArgument('run: -t needs -i');
  const name = f.name ?? `run-${randomBytes(4).toString('hex')}`;
  if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(name)) throw invalidArgument(`run: invalid name "${name}"`);
  const uid = randomUUID();
  const labels: Record<string, string> = {};
  for (const l of f.label ?? []) {
    const i = l.indexOf('=');
    if (i <= 0) throw invalidArgument(`run: label "${l}" is not k=v`);
    labels[l.slice(0, i)] = l.slice(i + 1);
  }
  const sandboxConfig: cri.PodSandboxConfigIn = {
    metadata: { name, namespace: 'default', uid, attempt: 0 },
    // A name that cannot be a hostname (my_app) leaves the pod the node's, as a config without one.
    ...(isDnsHostname(name) ? { hostname: name } : {}),
    logDirectory: `/var/log/pods/default_${name}_${uid}`,
    labels,
    linux: {},
  };
  // KeyValue.value is bytes in runtime.v1: a string there would be read as base64 on the wire.
  const envs = (f.env ?? []).map((e: string) => {
    const i = e.indexOf('=');
    const [key, value] = i < 0 ? [e, process.env[e] ?? ''] : [e.slice(0, i), e.slice(i + 1)];
    return { key, value: Buffer.from(value, 'utf8') };
  });
  const config: cri.ContainerConfigIn = {
    metadata: { name, attempt: 0 },
    image: { image },
    command: command.length ? command : undefined,
    envs,
    logPath: `${name}/0.log`,
    // kubelet's labels on a container: `ps` (ours and crictl's) shows its pod's name and namespace from them.
    labels: { ...labels, [POD_NAME_LABEL]: name, [POD_NAMESPACE_LABEL]: 'default', 'io.kubernetes.pod.uid': uid, 'io.kubernetes.container.name': name },
    stdin: Boolean(f.interactive),
    stdinOnce: Boolean(f.interactive),
    tty: Boolean(f.tty),
    linux: {},
  };
  const backend = await ctx.backend();
  await refuseNameInUse(backend, name);
  if (!f['no-pull']) await pull(backend, image, ctx, sandboxConfig);
  const podId = (await backend.runPodSandbox({ config: sandboxConfig, runtimeHandler: f.runtime ?? '' })).podSandboxId;
  let containerId: string;
  try {
    containerId = await createAndStart(backend, podId, config, sandboxConfig);
  } catch (err) {
    await removePod(backend, podId);
    throw err;
  }
  if (f.detach) {
    ctx.print(`${containerId}\n`);
    return 0;
  }
  let code: number;
  try {
    if (f.interactive) {
      code = await runStreamSession(backend, 'attach', { containerId, stdin: true, tty: Boolean(f.tty), stdout: true, stderr: !f.tty }, ctx);
    } else {
      code = await followUntilExit(ctx, backend, containerId);
    }
  } finally {
    if (f.rm) await removePod(backend, podId);
  }
  return code;
}

/**
 * As docker and isula: a name names one thing, since `exec web` or `logs web` resolve it. A pod or
 * container already carrying it (in any state) refuses the run before anything is made.
 */
async function refuseNameInUse(backend: CriBackend, name: string): Promise<void> {
  const pod = (await backend.listPodSandbox({})).items.find((p) => p.metadata?.name === name);
  const ctr = pod ? undefined : (await backend.listContainers({})).containers.find((c) => c.metadata?.name === name);
  const holder = pod ? `pod ${pod.id}` : ctr ? `container ${ctr.id}` : '';
  if (holder) throw alreadyExists(`run: the name "${name}" is already in use by ${holder}: remove it first, or choose another --name`);
}

/** Without -i: print the container's output as it comes (its log file) and return its exit code (also used by `debug`). */
export async function followUntilExit(ctx: CommandContext, backend: CriBackend, containerId: string): Promise<number> {
  const { readLogs } = await import('../cli/log-reader.js');
  const status = async () => (await backend.containerStatus({ containerId })).status;
  const logPath = (await status())?.logPath;
  if (logPath) {
    const write = (out: NodeJS.WriteStream, data: Buffer) => new Promise<void>((resolve) => (out.write(data) ? resolve() : out.once('drain', resolve)));
    await readLogs(
      logPath,
      { tail: -1, timestamps: false, limitBytes: -1, follow: true },
      { write: (stream, data) => write(stream === 'stdout' ? ctx.stdout : ctx.stderr, data) },
      { isRunning: async () => ['CONTAINER_RUNNING', 'CONTAINER_CREATED'].includes((await status())?.state ?? ''), pollMs: 100, statusEveryMs: 200 },
    );
  }
  // The log can end a moment before the state says EXITED: wait for it, boundedly.
  for (let i = 0; i < 100 && (await status())?.state !== 'CONTAINER_EXITED'; i++) await new Promise((r) => setTimeout(r, 100));
  return (await status())?.exitCode ?? 1;
}

async function pull(backend: CriBackend, image: string, ctx: CommandContext, sandboxConfig: cri.PodSandboxConfigIn): Promise<void> {
  if (!image) throw invalidArgument('run: the container config has no image');
  const have = await backend.imageStatus({ image: { image } }).catch(() => undefined);
  if (have?.image && !ctx.flags['with-pull']) return;
  try {
    await backend.pullImage({ image: { image }, auth: pullAuth(ctx.flags.creds, ctx.flags.auth), sandboxConfig });
  } catch (err) {
    // A bare "getaddrinfo ENOTFOUND registry-1.docker.io" hides that the image was looked for here first.
    if (have?.image) throw err;
    throw new Error(`image "${image}" is not present locally, and pulling it failed: ${(err as Error).message}`, { cause: err });
  }
}

async function createAndStart(backend: CriBackend, podSandboxId: string, config: cri.ContainerConfigIn, sandboxConfig: cri.PodSandboxConfigIn): Promise<string> {
  const { containerId } = await backend.createContainer({ podSandboxId, config, sandboxConfig });
  await backend.startContainer({ containerId });
  return containerId;
}

async function removePod(backend: CriBackend, podSandboxId: string): Promise<void> {
  await backend.stopPodSandbox({ podSandboxId }).catch(() => undefined);
  await backend.removePodSandbox({ podSandboxId }).catch(() => undefined);
}
