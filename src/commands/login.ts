import * as Flags from '@oclif/core/flags';
import * as Args from '@oclif/core/args';
import { defineCommand } from '../cli/spec.js';
import { extraOf } from '../client/backend.js';
import { invalidArgument } from '../runtime/errors.js';

export default defineCommand({
  summary: 'Log in to a registry (credentials stored in /root/.isulats/auths.json, mode 0600)',
  usage: 'login [-u USER] [-p PASSWORD | --password-stdin] SERVER',
  args: { server: Args.string({ required: true, description: 'Registry host, e.g. registry.example.com:5000' }) },
  flags: {
    username: Flags.string({ char: 'u', summary: 'User name' }),
    password: Flags.string({ char: 'p', summary: 'Password (prefer --password-stdin)' }),
    'password-stdin': Flags.boolean({ summary: 'Read the password from standard input' }),
  },
  async run(ctx) {
    const { username } = ctx.flags;
    let password: string | undefined = ctx.flags.password;
    if (ctx.flags['password-stdin']) {
      if (password) throw invalidArgument('--password and --password-stdin are mutually exclusive');
      const chunks: Buffer[] = [];
      for await (const c of ctx.stdin) chunks.push(Buffer.from(c));
      password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
    }
    if (!username || password === undefined) throw invalidArgument('login needs --username and a password (--password or --password-stdin)');
    const backend = await ctx.backend();
    await extraOf(backend, 'login', 'login')(ctx.args.server, username, password);
    ctx.print('Login Succeeded\n');
  },
});
