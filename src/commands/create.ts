import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { parseDuration } from '../cli/duration.js';
import { loadConfigFile } from '../cli/config-loader.js';
import { resolvePodId } from '../cli/resolve-id.js';
import { invalidArgument } from '../runtime/errors.js';
import type * as cri from '../api/cri.js';

export default defineCommand({
  summary: 'Create a new container',
  examples: [
    'isulats create --with-pull 7a3c container-config.json pod-config.json',
  ],
  usage: 'create [flags] POD-ID container-config.[json|yaml] pod-config.[json|yaml]',
  args: {
    pod: Args.string({ required: true, description: 'Pod ID (or a unique prefix)' }),
    containerConfig: Args.string({ required: true, description: 'Container config file (JSON or YAML)' }),
    podConfig: Args.string({ required: true, description: 'Pod sandbox config file (JSON or YAML)' }),
  },
  flags: {
    'no-pull': Flags.boolean({ summary: 'Do not pull the image on container creation (overrides pull-image-on-create=true in config)' }),
    'with-pull': Flags.boolean({ summary: 'Pull the image on container creation (overrides pull-image-on-create=false in config)' }),
    creds: Flags.string({ summary: 'Use USERNAME[:PASSWORD] for accessing the registry' }),
    auth: Flags.string({ summary: "Use AUTH_STRING for accessing the registry. AUTH_STRING is a base64 encoded 'USERNAME[:PASSWORD]'" }),
    'cancel-timeout': Flags.string({ char: 'T', summary: 'Time to wait for the container create request to complete before cancelling it (e.g. 30s)' }),
  },
  async run(ctx) {
    const f = ctx.flags;
    if (f['no-pull'] && f['with-pull']) throw invalidArgument('confict: no-pull and with-pull are both set');
    const config = await loadConfigFile(ctx.args.containerConfig, 'container');
    const sandboxConfig = await loadConfigFile(ctx.args.podConfig, 'pod');
    const auth = pullAuth(f.creds, f.auth);
    const clientConfig = await ctx.config();
    const withPull = (!f['no-pull'] && Boolean(clientConfig['pull-image-on-create'])) || Boolean(f['with-pull']);
    const cancel = f['cancel-timeout'] ? parseDuration(f['cancel-timeout']) : 0;
    if (cancel > 0) ctx.globals.timeoutMs = cancel;
    const backend = await ctx.backend();
    try {
      const podSandboxId = await resolvePodId(backend, ctx.args.pod);
      if (withPull) {
        const image = config.image ?? {};
        await backend.pullImage({ image: { image: image.image ?? '', annotations: image.annotations ?? {} }, auth, sandboxConfig });
      }
      const r = await backend.createContainer({ podSandboxId, config, sandboxConfig });
      ctx.print(`${r.containerId}\n`);
    } catch (err) {
      throw new Error(`creating container: ${(err as Error).message}`, { cause: err });
    }
  },
});

/** crictl's getAuth: --creds USER[:PASS] or --auth BASE64, never both. */
export function pullAuth(creds: string | undefined, auth: string | undefined): cri.AuthConfigIn | undefined {
  if (creds && auth) throw invalidArgument('both `--creds` and `--auth` are specified');
  if (creds) {
    const i = creds.indexOf(':');
    if (i < 0) return { username: creds, password: '' };
    if (i === 0) throw invalidArgument("username can't be empty");
    return { username: creds.slice(0, i), password: creds.slice(i + 1) };
  }
  if (auth) return { auth };
  return undefined;
}
