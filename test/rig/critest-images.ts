// The images the upstream CRI validation suite (critest v1.34.0 and v1.26.1: cri-tools pkg/validate and
// pkg/framework) pulls by their upstream names, built for the rig and pushed to a local registry
// under the same repository paths, so that a daemon with registry mirrors for registry.k8s.io and
// gcr.io serves them offline. One rootfs holds what every one of them must do; each image is a
// config over it (command, user, env), so they share one layer:
// - busybox with its applets as hard links (upstream's layout: masking /bin/ls must hide ls only)
//   and a shell that looks commands up in PATH. Debian's busybox-static runs its applets in-process
//   (masked-path spec) and has no pgrep/ipcs, so this is Debian's dynamic busybox with the host's
//   libc, plus pgrep and ipcs scripts (assets/critest-images);
// - nginx (a master process named so, /var/run/nginx.pid, HTTP on $PORT) and httpd (HTTP on 80,
//   its start-up line in the log);
// - a setuid-root program that prints its effective UID (nonewprivs);
// - upstream busybox's users and groups, plus default-user (1000) in group-defined-in-image (50000).
// The digest-pinned test-image-digest@sha256:9700f9a2... cannot be rebuilt by anyone: not served.
import { createHash } from 'node:crypto';
import { chmod, chown, copyFile, link, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOciLayout } from './oci-layout.js';
import { exists, pushLayout, subdir } from './images.js';
import { run } from './proc.js';
import { makeTempDir, removeTempDir } from './temp-dir.js';

/** Debian's dynamic busybox, unpacked (not installed: it conflicts with busybox-static) by scripts/build-critest.sh. */
export const DYNAMIC_BUSYBOX = join(process.env.ISULATS_CRITEST_BUSYBOX_DIR ?? '/var/cache/isulats/busybox-dynamic', 'bin/busybox');

const ASSETS = fileURLToPath(new URL('../../assets/critest-images/', import.meta.url));
/** Bump when the rootfs or the image list below changes, so stale cached layouts are not reused. */
const RECIPE_VERSION = '1';
const CACHE_ROOT = process.env.ISULATS_RIG_CACHE ?? '/tmp/isulats-rig-cache';
const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const K8S_E2E = 'registry.k8s.io/e2e-test-images/';
const CRI_TOOLS = 'gcr.io/k8s-staging-cri-tools/';
/** The registries the suite pulls from: each needs a mirror to the local registry. */
export const CRITEST_REGISTRIES = ['registry.k8s.io', 'gcr.io'];

/** The Go architecture name critest puts into hostnet-nginx-<arch>. */
const GOARCH = ({ x64: 'amd64', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x' } as Record<string, string>)[process.arch] ?? process.arch;

interface ImageConfig {
  cmd?: string[];
  entrypoint?: string[];
  user?: string;
  env?: string[];
}

/** Upstream references (without the digest one) with the image config each needs. */
const IMAGES: Array<{ refs: string[]; config: ImageConfig }> = [
  { refs: [`${K8S_E2E}busybox:1.29-2`], config: { cmd: ['sh'] } },
  { refs: [`${K8S_E2E}nginx:1.14-2`], config: { cmd: ['nginx', '-g', 'daemon off;'] } },
  { refs: [`${K8S_E2E}httpd:2.4.39-4`], config: { cmd: ['httpd-foreground'] } },
  { refs: [`${K8S_E2E}nonewprivs:1.3`], config: { entrypoint: ['/usr/local/bin/nnp'] } },
  // Host network: port 12003, which the suite's port-forward spec names.
  { refs: [`${CRI_TOOLS}hostnet-nginx-${GOARCH}:latest`], config: { cmd: ['nginx', '-g', 'daemon off;'], env: ['PORT=12003'] } },
  { refs: [`${CRI_TOOLS}test-image-user-uid:latest`], config: { user: '1002' } },
  { refs: [`${CRI_TOOLS}test-image-user-username:latest`], config: { user: 'www-data' } },
  { refs: [`${CRI_TOOLS}test-image-user-uid-group:latest`], config: { user: '1003:users' } },
  { refs: [`${CRI_TOOLS}test-image-user-username-group:latest`], config: { user: 'www-data:users' } },
  { refs: [`${CRI_TOOLS}test-image-predefined-group:latest`], config: { user: 'default-user' } },
  { refs: [`${CRI_TOOLS}test-image-latest:latest`], config: {} },
  { refs: [`${CRI_TOOLS}test-image-tag:test`], config: {} },
  { refs: [`${CRI_TOOLS}test-image-tag:all`], config: {} },
  // "Different tags, different images" and "different tags, one image".
  { refs: [`${CRI_TOOLS}test-image-1:latest`], config: {} },
  { refs: [`${CRI_TOOLS}test-image-2:latest`], config: {} },
  { refs: [`${CRI_TOOLS}test-image-3:latest`], config: {} },
  { refs: [`${CRI_TOOLS}test-image-tags:1`, `${CRI_TOOLS}test-image-tags:2`, `${CRI_TOOLS}test-image-tags:3`], config: {} },
];

/** Upstream busybox's accounts, and the predefined-group image's. */
const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'daemon:x:1:1:daemon:/usr/sbin:/bin/false',
  'bin:x:2:2:bin:/bin:/bin/false',
  'sys:x:3:3:sys:/dev:/bin/false',
  'sync:x:4:100:sync:/bin:/bin/sync',
  'mail:x:8:8:mail:/var/spool/mail:/bin/false',
  'www-data:x:33:33:www-data:/var/www:/bin/false',
  'operator:x:37:37:Operator:/var:/bin/false',
  'default-user:x:1000:1000:default-user:/home/default-user:/bin/sh',
  'nobody:x:65534:65534:nobody:/home:/bin/false',
];
const GROUP = [
  'root:x:0:', 'daemon:x:1:', 'bin:x:2:', 'sys:x:3:', 'adm:x:4:', 'tty:x:5:', 'disk:x:6:', 'lp:x:7:',
  'mail:x:8:', 'kmem:x:9:', 'wheel:x:10:root', 'cdrom:x:11:', 'dialout:x:18:', 'floppy:x:19:',
  'video:x:28:', 'audio:x:29:', 'tape:x:32:', 'www-data:x:33:', 'operator:x:37:', 'utmp:x:43:',
  'plugdev:x:46:', 'staff:x:50:', 'lock:x:54:', 'netdev:x:82:', 'users:x:100:', 'default-user:x:1000:',
  'group-defined-in-image:x:50000:default-user', 'nogroup:x:65534:',
];

/** The suite's images, built once per input hash into one OCI layout (a tag per image) under the rig cache. */
export async function critestImageLayout(): Promise<string> {
  const dir = join(CACHE_ROOT, `critest-${await inputHash()}`);
  const layout = join(dir, 'layout');
  if (await exists(join(dir, 'complete'))) return layout;
  await mkdir(CACHE_ROOT, { recursive: true });
  const scratch = await makeTempDir('ist-cimg-');
  try {
    const staged = join(scratch, 'out');
    await mkdir(staged);
    const stagedLayout = join(staged, 'layout');
    await buildOciLayout(stagedLayout, await subdir(scratch, 'build'), { tags: ['base'], populate: populateCritestRootfs, env: [PATH_ENV] });
    for (const [index, image] of IMAGES.entries()) await addConfig(stagedLayout, layoutTag(index), image.config, image.refs[0]!);
    await run('umoci', ['gc', '--layout', stagedLayout]);
    await writeFile(join(staged, 'complete'), '');
    // A concurrent run may have won the race; either copy is complete, so keep theirs.
    await rename(staged, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (!(await exists(join(dir, 'complete')))) throw error;
    });
  } finally {
    await removeTempDir(scratch);
  }
  return layout;
}

/** Pushes every image to `registryHost` under its upstream repository path (registry.k8s.io/a/b:t -> HOST/a/b:t). */
export async function pushCritestImages(registryHost: string): Promise<string[]> {
  const layout = await critestImageLayout();
  const pushed: string[] = [];
  for (const [index, image] of IMAGES.entries()) {
    for (const ref of image.refs) {
      const local = `${registryHost}/${ref.slice(ref.indexOf('/') + 1)}`;
      await pushLayout(`${layout}:${layoutTag(index)}`, local);
      pushed.push(ref);
    }
  }
  return pushed;
}

/** containerd-format hosts.toml files: each of the suite's registries mirrored to `registryHost` over plain http. */
export async function writeCritestMirrors(certsDir: string, registryHost: string): Promise<void> {
  for (const registry of CRITEST_REGISTRIES) {
    await mkdir(join(certsDir, registry), { recursive: true });
    await writeFile(join(certsDir, registry, 'hosts.toml'), [
      // The default host is the rig's registry too: an image the mirror lacks (the digest-pinned
      // spec's) then fails here instead of falling back to the internet.
      `server = "http://${registryHost}"`,
      `[host."http://${registryHost}"]`,
      '  capabilities = ["pull", "resolve"]',
      '',
    ].join('\n'));
  }
}

const layoutTag = (index: number) => `image-${index}`;

/** A tag of the layout: the base rootfs under `config`, made distinct by the image's name (its own ID). */
async function addConfig(layout: string, tag: string, config: ImageConfig, name: string): Promise<void> {
  const args = ['config', '--image', `${layout}:base`, '--tag', tag, '--author', 'isulats-test-rig', '--config.label', `io.isulats.test-image=${name}`];
  for (const env of config.env ?? []) args.push('--config.env', env);
  for (const arg of config.cmd ?? []) args.push('--config.cmd', arg);
  for (const arg of config.entrypoint ?? []) args.push('--config.entrypoint', arg);
  if (config.user) args.push('--config.user', config.user);
  await run('umoci', args);
}

async function populateCritestRootfs(rootfs: string): Promise<void> {
  for (const dir of ['bin', 'etc', 'dev', 'proc', 'sys', 'root', 'home/default-user', 'var/run', 'var/www', 'usr/bin', 'usr/sbin', 'usr/local/bin', 'usr/share/nginx/html', 'usr/local/apache2/htdocs']) {
    await mkdir(join(rootfs, dir), { recursive: true });
  }
  await mkdir(join(rootfs, 'tmp'));
  await chmod(join(rootfs, 'tmp'), 0o1777);
  await chmod(join(rootfs, 'root'), 0o700);
  await chown(join(rootfs, 'home/default-user'), 1000, 1000);

  const busybox = join(rootfs, 'bin/busybox');
  await copyFile(DYNAMIC_BUSYBOX, busybox);
  await chmod(busybox, 0o755);
  for (const lib of await sharedLibraries(DYNAMIC_BUSYBOX)) {
    await mkdir(join(rootfs, dirname(lib)), { recursive: true });
    await copyFile(lib, join(rootfs, lib));
  }
  for (const applet of await applets()) {
    if (applet !== 'busybox') await link(busybox, join(rootfs, 'bin', applet));
  }
  await script('pgrep.sh', join(rootfs, 'usr/bin/pgrep'));
  await script('ipcs.sh', join(rootfs, 'usr/bin/ipcs'));

  await run('gcc', ['-static', '-O2', '-s', '-o', join(rootfs, 'usr/sbin/nginx'), join(ASSETS, 'web-server.c')], { timeoutMs: 120_000 });
  await script('httpd-foreground.sh', join(rootfs, 'usr/local/bin/httpd-foreground'));
  await run('gcc', ['-static', '-O2', '-s', '-o', join(rootfs, 'usr/local/bin/nnp'), join(ASSETS, 'nonewprivs.c')], { timeoutMs: 120_000 });
  await chmod(join(rootfs, 'usr/local/bin/nnp'), 0o4755);
  await writeFile(join(rootfs, 'usr/share/nginx/html/index.html'), '<h1>Welcome to nginx!</h1>\n');
  await writeFile(join(rootfs, 'usr/local/apache2/htdocs/index.html'), '<html><body><h1>It works!</h1></body></html>\n');

  await writeFile(join(rootfs, 'etc/passwd'), `${PASSWD.join('\n')}\n`);
  await writeFile(join(rootfs, 'etc/group'), `${GROUP.join('\n')}\n`);
  await writeFile(join(rootfs, 'etc/nsswitch.conf'), 'passwd: files\ngroup: files\nhosts: files dns\n');
}

async function script(asset: string, dest: string): Promise<void> {
  await copyFile(join(ASSETS, asset), dest);
  await chmod(dest, 0o755);
}

/** The shared objects a dynamic binary loads (ldd's resolved paths and the loader). */
async function sharedLibraries(binary: string): Promise<string[]> {
  const { stdout } = await run('ldd', [binary]);
  return [...stdout.matchAll(/(?:=>\s*)?(\/\S+)\s+\(0x/g)].map((m) => m[1]!);
}

async function applets(): Promise<string[]> {
  const { stdout } = await run(DYNAMIC_BUSYBOX, ['--list']);
  return stdout.split('\n').map((s) => s.trim()).filter((s) => /^[\w.[-]+$/.test(s));
}

async function inputHash(): Promise<string> {
  const hash = createHash('sha256');
  hash.update(RECIPE_VERSION);
  hash.update(JSON.stringify(IMAGES));
  hash.update(await readFile(DYNAMIC_BUSYBOX));
  for (const lib of await sharedLibraries(DYNAMIC_BUSYBOX)) hash.update(await readFile(lib));
  for (const asset of ['web-server.c', 'nonewprivs.c', 'pgrep.sh', 'ipcs.sh', 'httpd-foreground.sh']) hash.update(await readFile(join(ASSETS, asset)));
  return hash.digest('hex').slice(0, 16);
}

