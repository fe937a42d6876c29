// test/rig/registry.ts
import { spawn as spawn2 } from "node:child_process";
import { openSync, closeSync } from "node:fs";
import { mkdir, writeFile as writeFile3 } from "node:fs/promises";
import { join as join3 } from "node:path";

// test/rig/free-port.ts
import { createServer } from "node:net";
var RESERVED = /* @__PURE__ */ new Set([5e3, 5001]);
async function freePort() {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await new Promise((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        const chosen = typeof address === "object" && address ? address.port : 0;
        server.close(() => resolve(chosen));
      });
    });
    if (port > 0 && !RESERVED.has(port)) return port;
  }
  throw new Error("no free TCP port found on 127.0.0.1");
}

// test/rig/htpasswd.ts
import { writeFile } from "node:fs/promises";

// test/rig/proc.ts
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
function run(cmd, args, opts = {}) {
  const timeoutMs = opts.timeoutMs ?? 12e4;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: "pipe" });
    const out = [];
    const err = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    const timer = setTimeout(() => {
      if (child.pid) signalPid(child.pid, "SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const result = {
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString()
      };
      if (opts.check !== false && result.code !== 0) {
        reject(new Error(`${cmd} ${args.join(" ")} exited ${result.code}${signal ? ` (${signal})` : ""}: ${result.stderr.trim()}`));
      } else {
        resolve(result);
      }
    });
    child.stdin.on("error", () => void 0);
    child.stdin.end(opts.input);
  });
}
function signalPid(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if (error.code !== "ESRCH") throw error;
  }
}
async function pidAlive(pid) {
  try {
    const stat2 = await readFile(`/proc/${pid}/stat`, "utf8");
    const state = stat2.slice(stat2.lastIndexOf(")") + 2, stat2.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}
async function stopPid(pid, graceMs = 1e4) {
  signalPid(pid, "SIGTERM");
  if (await waitGone(pid, graceMs)) return true;
  signalPid(pid, "SIGKILL");
  return waitGone(pid, 5e3);
}
async function waitGone(pid, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!await pidAlive(pid)) return true;
    await sleep(50);
  }
  return !await pidAlive(pid);
}
async function commandLineMentions(pid, text) {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  return cmdline.includes(text) && await pidAlive(pid);
}

// test/rig/htpasswd.ts
var PYTHON = "/usr/bin/python3";
var SCRIPT = [
  "import crypt, sys",
  "pw = sys.stdin.read()",
  "print(crypt.crypt(pw, crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))"
].join("\n");
async function bcryptHash(password) {
  const { stdout } = await run(PYTHON, ["-W", "ignore", "-c", SCRIPT], { input: password, timeoutMs: 3e4 });
  const hash = stdout.trim();
  if (!/^\$2[aby]\$/.test(hash)) throw new Error(`python3 crypt did not produce a bcrypt hash: ${hash}`);
  return hash;
}
async function writeHtpasswd(path, users) {
  const lines = [];
  for (const [user, password] of Object.entries(users)) lines.push(`${user}:${await bcryptHash(password)}`);
  await writeFile(path, `${lines.join("\n")}
`, { mode: 384 });
}

// test/rig/owner.ts
import { readFile as readFile2, writeFile as writeFile2 } from "node:fs/promises";
import { join } from "node:path";
var FILE = "owner.json";
async function processStart(pid) {
  const stat2 = await readFile2(`/proc/${pid}/stat`, "utf8").catch(() => void 0);
  if (!stat2) return void 0;
  return stat2.slice(stat2.lastIndexOf(")") + 2).split(" ")[19];
}
async function writeOwner(dir, data) {
  const record = { ownerPid: process.pid, ownerStart: await processStart(process.pid) ?? "", data };
  await writeFile2(join(dir, FILE), JSON.stringify(record));
}

// test/rig/temp-dir.ts
import { mkdtemp, rm } from "node:fs/promises";
function makeTempDir(prefix = "ist-") {
  return mkdtemp(`/tmp/${prefix}`);
}
async function removeTempDir(dir) {
  if (!dir.startsWith("/tmp/") || dir.includes("..")) throw new Error(`refusing to remove ${dir}`);
  await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

// test/rig/token-cert.ts
import { createHash, X509Certificate } from "node:crypto";
import { readFile as readFile3 } from "node:fs/promises";
import { join as join2 } from "node:path";
async function makeTokenSigningCert(dir) {
  const keyPath = join2(dir, "token.key");
  const certPath = join2(dir, "token.crt");
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    keyPath,
    "-out",
    certPath,
    "-days",
    "3",
    "-subj",
    "/CN=isulats-test-token"
  ], { timeoutMs: 6e4 });
  const cert = new X509Certificate(await readFile3(certPath));
  return { keyPath, certPath, certDer: cert.raw.toString("base64"), keyId: libtrustKeyId(cert) };
}
function libtrustKeyId(cert) {
  const spki = cert.publicKey.export({ type: "spki", format: "der" });
  const digest = createHash("sha256").update(spki).digest().subarray(0, 30);
  const encoded = base32(digest);
  const groups = [];
  for (let i = 0; i < encoded.length; i += 4) groups.push(encoded.slice(i, i + 4));
  return groups.join(":");
}
function base32(bytes) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = value << 8 | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[value >>> bits - 5 & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[value << 5 - bits & 31];
  return out;
}

// test/rig/wait.ts
import { setTimeout as sleep2 } from "node:timers/promises";
var GiveUp = class extends Error {
};
async function waitFor(probe, opts) {
  const deadline = Date.now() + opts.timeoutMs;
  const interval = opts.intervalMs ?? 100;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== void 0 && value !== false) return value;
    } catch (error) {
      if (error instanceof GiveUp) throw error;
      lastError = error;
    }
    await sleep2(interval);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${reason}`);
}

// test/rig/registry.ts
var REGISTRY_BIN = "/usr/bin/docker-registry";
async function startRegistry(opts = {}) {
  const dir = await makeTempDir("ist-reg-");
  try {
    return await launch(dir, opts);
  } catch (error) {
    await removeTempDir(dir);
    throw error;
  }
}
async function stopRegistryDir(dir, pid) {
  if (pid !== void 0 && await commandLineMentions(pid, dir)) await stopPid(pid, 5e3);
  await removeTempDir(dir);
}
async function launch(dir, opts) {
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const storage = join3(dir, "storage");
  await mkdir(storage);
  const config = {
    version: "0.1",
    log: { level: "info", accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: storage }, delete: { enabled: true } },
    http: { addr: host, secret: "isulats-test-secret" },
    health: { storagedriver: { enabled: false } }
  };
  let token;
  if (opts.htpasswd) {
    const path = join3(dir, "htpasswd");
    await writeHtpasswd(path, opts.htpasswd);
    config.auth = { htpasswd: { realm: "isulats-test", path } };
  } else if (opts.token) {
    const cert = await makeTokenSigningCert(dir);
    const settings = {
      realm: opts.token.realm,
      service: opts.token.service ?? host,
      issuer: opts.token.issuer ?? "isulats-test-issuer"
    };
    token = { ...cert, ...settings };
    config.auth = { token: { ...settings, rootcertbundle: cert.certPath } };
  }
  const configPath = join3(dir, "config.yml");
  await writeFile3(configPath, JSON.stringify(config, null, 2));
  const logPath = join3(dir, "registry.log");
  const logFd = openSync(logPath, "a");
  const child = spawn2(REGISTRY_BIN, ["serve", configPath], { stdio: ["ignore", logFd, logFd] });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === void 0) throw new Error("docker-registry did not start");
  child.unref();
  await writeOwner(dir, { registryPid: pid });
  const stop = () => stopRegistryDir(dir, pid);
  try {
    await waitFor(async () => {
      if (!await pidAlive(pid)) throw new GiveUp(`docker-registry exited; see ${logPath}`);
      const res = await fetch(`http://${host}/v2/`, { signal: AbortSignal.timeout(2e3) });
      await res.arrayBuffer();
      return res.status === 200 || res.status === 401;
    }, { timeoutMs: 2e4, what: `docker-registry on ${host}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return { host, url: `http://${host}`, dir, pid, logPath, token, stop };
}

// test/rig/images.ts
import { createHash as createHash2 } from "node:crypto";
import { chmod as chmod2, mkdir as mkdir3, readFile as readFile4, rename, stat } from "node:fs/promises";
import { join as join6 } from "node:path";

// test/rig/busybox-rootfs.ts
import { chmod, chown, copyFile, mkdir as mkdir2, symlink, writeFile as writeFile4 } from "node:fs/promises";
import { join as join4 } from "node:path";
var BUSYBOX_BIN = "/bin/busybox";
var REQUIRED_APPLETS = [
  "sh",
  "ls",
  "cat",
  "echo",
  "sleep",
  "top",
  "ps",
  "env",
  "id",
  "hostname",
  "wget",
  "nc",
  "ip",
  "mount",
  "dd",
  "head",
  "tail",
  "true",
  "false",
  "grep"
];
var PASSWD = [
  "root:x:0:0:root:/root:/bin/sh",
  "app:x:1000:1000:app:/home/app:/bin/sh",
  "nobody:x:65534:65534:nobody:/nonexistent:/bin/false"
].join("\n");
var GROUP = ["root:x:0:", "app:x:1000:", "nogroup:x:65534:"].join("\n");
async function populateBusyboxRootfs(rootfs) {
  for (const dir of ["bin", "etc", "dev", "proc", "sys", "root", "home/app", "var", "usr/bin"]) {
    await mkdir2(join4(rootfs, dir), { recursive: true });
  }
  await mkdir2(join4(rootfs, "tmp"), { recursive: true });
  await chmod(join4(rootfs, "tmp"), 1023);
  await chmod(join4(rootfs, "root"), 448);
  await chown(join4(rootfs, "home/app"), 1e3, 1e3);
  await copyFile(BUSYBOX_BIN, join4(rootfs, "bin/busybox"));
  await chmod(join4(rootfs, "bin/busybox"), 493);
  for (const applet of await listApplets()) {
    if (applet === "busybox") continue;
    await symlink("busybox", join4(rootfs, "bin", applet));
  }
  await writeFile4(join4(rootfs, "etc/passwd"), `${PASSWD}
`);
  await writeFile4(join4(rootfs, "etc/group"), `${GROUP}
`);
}
async function listApplets() {
  const { stdout } = await run(BUSYBOX_BIN, ["--list"]);
  const applets = stdout.split("\n").map((s) => s.trim()).filter((s) => /^[\w.[-]+$/.test(s));
  const missing = REQUIRED_APPLETS.filter((a) => !applets.includes(a));
  if (missing.length > 0) throw new Error(`${BUSYBOX_BIN} lacks applets: ${missing.join(", ")}`);
  return applets;
}

// test/rig/oci-layout.ts
import { join as join5 } from "node:path";
var UMOCI = "umoci";
async function buildOciLayout(layout, scratch, recipe) {
  const [first, ...others] = recipe.tags;
  if (!first) throw new Error("an image recipe needs at least one tag");
  const image = `${layout}:${first}`;
  const bundle = join5(scratch, "bundle");
  await run(UMOCI, ["init", "--layout", layout]);
  await run(UMOCI, ["new", "--image", image]);
  await run(UMOCI, ["unpack", "--image", image, bundle]);
  await recipe.populate(join5(bundle, "rootfs"));
  await run(UMOCI, ["repack", "--image", image, bundle]);
  const config = ["config", "--image", image, "--author", "isulats-test-rig"];
  for (const env of recipe.env ?? []) config.push("--config.env", env);
  for (const arg of recipe.cmd ?? []) config.push("--config.cmd", arg);
  for (const arg of recipe.entrypoint ?? []) config.push("--config.entrypoint", arg);
  if (recipe.workingDir) config.push("--config.workingdir", recipe.workingDir);
  await run(UMOCI, config);
  for (const tag of others) await run(UMOCI, ["tag", "--image", image, tag]);
  await run(UMOCI, ["gc", "--layout", layout]);
}

// test/rig/pause-binary.ts
import { fileURLToPath } from "node:url";
var PAUSE_SOURCE = fileURLToPath(new URL("../../assets/pause/pause.c", import.meta.url));
async function compilePause(out) {
  await run("gcc", ["-static", "-O2", "-s", "-o", out, PAUSE_SOURCE], { timeoutMs: 12e4 });
}

// test/rig/images.ts
var RECIPE_VERSION = "1";
var CACHE_ROOT = "/tmp/isulats-rig-cache";
var BUSYBOX_REPO = "library/busybox";
var BUSYBOX_TAGS = ["latest", "1.35"];
var PAUSE_REPO = "pause";
var PAUSE_TAG = "3.9";
var PATH_ENV = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
async function rigImageLayouts() {
  const key = await inputHash();
  const dir = join6(CACHE_ROOT, key);
  const layouts = { busybox: join6(dir, "busybox"), pause: join6(dir, "pause") };
  if (await exists(join6(dir, "complete"))) return layouts;
  await mkdir3(CACHE_ROOT, { recursive: true });
  const scratch = await makeTempDir("ist-img-");
  try {
    const staged = join6(scratch, "out");
    await mkdir3(staged);
    await buildOciLayout(join6(staged, "busybox"), await subdir(scratch, "bb"), {
      tags: BUSYBOX_TAGS,
      populate: populateBusyboxRootfs,
      cmd: ["sh"],
      env: [PATH_ENV]
    });
    await buildOciLayout(join6(staged, "pause"), await subdir(scratch, "pause"), {
      tags: [PAUSE_TAG],
      populate: async (rootfs) => {
        await compilePause(join6(rootfs, "pause"));
        await chmod2(join6(rootfs, "pause"), 493);
      },
      entrypoint: ["/pause"],
      env: [PATH_ENV]
    });
    await run("touch", [join6(staged, "complete")]);
    await rename(staged, dir).catch(async (error) => {
      if (!await exists(join6(dir, "complete"))) throw error;
    });
  } finally {
    await removeTempDir(scratch);
  }
  return layouts;
}
async function pushRigImages(registryHost, opts = {}) {
  const layouts = await rigImageLayouts();
  const busyboxRefs = [];
  for (const tag of BUSYBOX_TAGS) {
    const ref = `${registryHost}/${BUSYBOX_REPO}:${tag}`;
    await pushLayout(`${layouts.busybox}:${tag}`, ref, opts);
    busyboxRefs.push(ref);
  }
  const pause = `${registryHost}/${PAUSE_REPO}:${PAUSE_TAG}`;
  await pushLayout(`${layouts.pause}:${PAUSE_TAG}`, pause, opts);
  return { busybox: busyboxRefs[0], busyboxRefs, pause };
}
async function pushLayout(source, ref, opts = {}) {
  const args = ["--insecure-policy", "copy", "--quiet", "--dest-tls-verify=false"];
  if (opts.creds) args.push("--dest-creds", opts.creds);
  args.push(`oci:${source}`, `docker://${ref}`);
  await run("skopeo", args, { timeoutMs: 12e4 });
}
async function inputHash() {
  const hash = createHash2("sha256");
  hash.update(RECIPE_VERSION);
  hash.update(await readFile4(BUSYBOX_BIN));
  hash.update(await readFile4(PAUSE_SOURCE));
  return hash.digest("hex").slice(0, 16);
}
async function subdir(parent, name) {
  const dir = join6(parent, name);
  await mkdir3(dir);
  return dir;
}
async function exists(path) {
  return stat(path).then(() => true, () => false);
}

// test/rig/containerd.ts
import { spawn as spawn3 } from "node:child_process";
import { closeSync as closeSync2, openSync as openSync2 } from "node:fs";
import { mkdir as mkdir4, readdir as readdir2, readFile as readFile6, rm as rm3, writeFile as writeFile6 } from "node:fs/promises";
import { join as join9 } from "node:path";

// test/rig/cni-conf.ts
import { randomBytes } from "node:crypto";
import { writeFile as writeFile5 } from "node:fs/promises";
import { join as join7 } from "node:path";
var CNI_BIN_DIR = "/usr/lib/cni";
async function writeBridgeConflist(confDir, leaseDir) {
  const suffix = randomBytes(3).toString("hex");
  const name = `ist-net-${suffix}`;
  const bridge = `istbr${suffix}`;
  const octet = await unusedOctet();
  const subnet = `10.88.${octet}.0/24`;
  const gateway = `10.88.${octet}.1`;
  const conflist = {
    cniVersion: "1.0.0",
    name,
    plugins: [
      {
        type: "bridge",
        bridge,
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: "host-local",
          dataDir: leaseDir,
          ranges: [[{ subnet, gateway }]],
          routes: [{ dst: "0.0.0.0/0" }]
        }
      },
      { type: "portmap", capabilities: { portMappings: true } }
    ]
  };
  const confPath = join7(confDir, `10-${name}.conflist`);
  await writeFile5(confPath, `${JSON.stringify(conflist, null, 2)}
`);
  return { name, bridge, subnet, gateway, leaseDir, confPath };
}
async function unusedOctet() {
  const { stdout } = await run("ip", ["-4", "route", "show"], { check: false });
  for (let attempt = 0; attempt < 50; attempt++) {
    const octet = 2 + randomBytes(1)[0] % 250;
    if (!stdout.includes(`10.88.${octet}.`)) return octet;
  }
  throw new Error("no unused 10.88.x.0/24 subnet found");
}

// test/rig/containerd-config.ts
import { stringify } from "smol-toml";
var DISABLED_PLUGINS = [
  "io.containerd.snapshotter.v1.aufs",
  "io.containerd.snapshotter.v1.btrfs",
  "io.containerd.snapshotter.v1.zfs",
  "io.containerd.snapshotter.v1.devmapper",
  "io.containerd.internal.v1.tracing",
  "io.containerd.tracing.processor.v1.otlp"
];
function containerdConfigToml(input) {
  const config = {
    version: 2,
    root: input.root,
    state: input.state,
    disabled_plugins: DISABLED_PLUGINS,
    grpc: { address: input.socket },
    ttrpc: { address: `${input.socket}.ttrpc` },
    debug: { level: "info" },
    plugins: {
      "io.containerd.grpc.v1.cri": {
        sandbox_image: input.sandboxImage,
        restrict_oom_score_adj: true,
        stream_server_address: "127.0.0.1",
        stream_server_port: String(input.streamPort),
        netns_mounts_under_state_dir: true,
        disable_apparmor: true,
        enable_selinux: false,
        max_container_log_line_size: 16384,
        containerd: {
          snapshotter: "overlayfs",
          default_runtime_name: "runc",
          runtimes: {
            // runc's state under our state dir, not the shared /run/containerd/runc.
            runc: { runtime_type: "io.containerd.runc.v2", options: { SystemdCgroup: false, Root: `${input.state}/runc` } }
          }
        },
        cni: { bin_dir: input.cniBinDir, conf_dir: input.cniConfDir, max_conf_num: 1 },
        registry: { config_path: input.certsDir }
      },
      "io.containerd.internal.v1.opt": { path: `${input.root}/opt` }
    }
  };
  return stringify(config);
}
function plainHttpHostsToml(host) {
  return stringify({
    server: `http://${host}`,
    host: { [`http://${host}`]: { capabilities: ["pull", "resolve", "push"], skip_verify: true } }
  });
}

// test/rig/cri-client.ts
import { existsSync } from "node:fs";
import { fileURLToPath as fileURLToPath2 } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
var FULL_PROTO = fileURLToPath2(new URL("../../proto/runtime/v1/api.proto", import.meta.url));
var SUBSET_PROTO = fileURLToPath2(new URL("./cri-v1-subset.proto", import.meta.url));
var LOADER_OPTIONS = {
  keepCase: false,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true
};
var cached;
function loadServices() {
  if (cached) return cached;
  const attempts = [["subset", SUBSET_PROTO]];
  if (existsSync(FULL_PROTO)) attempts.unshift(["full", FULL_PROTO]);
  let lastError;
  for (const [source, path] of attempts) {
    try {
      const pkg = grpc.loadPackageDefinition(protoLoader.loadSync(path, LOADER_OPTIONS));
      const v1 = pkg.runtime.v1;
      cached = { runtime: v1.RuntimeService, image: v1.ImageService, source };
      return cached;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
function openCriClient(endpoint) {
  const services = loadServices();
  const creds = grpc.credentials.createInsecure();
  const runtime = new services.runtime(endpoint, creds);
  const image = new services.image(endpoint, creds);
  return {
    protoSource: services.source,
    runtime: (method, request = {}, timeoutMs = 3e4) => invoke(runtime, method, request, timeoutMs),
    image: (method, request = {}, timeoutMs = 12e4) => invoke(image, method, request, timeoutMs),
    close: () => {
      runtime.close();
      image.close();
    }
  };
}
function invoke(client, method, request, timeoutMs) {
  const fn = client[method];
  if (typeof fn !== "function") return Promise.reject(new Error(`no CRI method ${method}`));
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + timeoutMs);
    fn.call(client, request, { deadline }, (error, response) => {
      if (error) reject(error);
      else resolve(response);
    });
  });
}

// test/rig/host-cleanup.ts
import { createHash as createHash3 } from "node:crypto";
import { readdir, readFile as readFile5, readlink, rm as rm2, rmdir } from "node:fs/promises";
import { join as join8 } from "node:path";
import { setTimeout as sleep3 } from "node:timers/promises";
async function listProcesses() {
  const out = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === 1 || pid === process.pid) continue;
    try {
      const argv = (await readFile5(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter(Boolean);
      const root = await readlink(`/proc/${pid}/root`).catch(() => "");
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
      const cgroupFile = await readFile5(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
      const cgroups = cgroupFile.split("\n").map((l) => l.split(":").slice(2).join(":")).filter(Boolean);
      out.push({ pid, argv, root, cwd, cgroups });
    } catch {
    }
  }
  return out;
}
function inCgroupOf(p, ids) {
  return p.cgroups.some((path) => ids.has(path.slice(path.lastIndexOf("/") + 1)));
}
async function findCgroupDirs(ids) {
  const found = [];
  if (ids.size === 0) return found;
  const walk = async (dir, depth) => {
    if (depth > 4) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const path = join8(dir, entry.name);
      if (ids.has(entry.name)) found.push(path);
      else await walk(path, depth + 1);
    }
  };
  await walk("/sys/fs/cgroup", 0);
  return found;
}
async function removeCgroupsNamed(ids) {
  for (const path of await findCgroupDirs(ids)) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const removed = await rmdir(path).then(() => true, (error) => error.code === "ENOENT");
      if (removed) break;
      await sleep3(50);
    }
  }
}
function isUnder(path, dir) {
  return path === dir || path.startsWith(`${dir}/`);
}
async function killPids(pids, waitMs = 5e3) {
  for (const pid of pids) signalPid(pid, "SIGKILL");
  const deadline = Date.now() + waitMs;
  let alive = pids;
  while (alive.length > 0 && Date.now() < deadline) {
    const still = [];
    for (const pid of alive) if (await pidAlive(pid)) still.push(pid);
    alive = still;
    if (alive.length > 0) await sleep3(50);
  }
  return alive;
}
async function mountsUnder(dir) {
  const info = await readFile5("/proc/self/mountinfo", "utf8");
  const points = info.split("\n").map((line) => line.split(" ")[4]).filter((p) => Boolean(p)).map((p) => p.replace(/\\([0-7]{3})/g, (_, oct) => String.fromCharCode(parseInt(oct, 8)))).filter((p) => isUnder(p, dir));
  return [...new Set(points)].sort((a, b) => b.length - a.length);
}
async function unmountUnder(dir) {
  for (let round = 0; round < 5; round++) {
    const points = await mountsUnder(dir);
    if (points.length === 0) return;
    for (const point of points) await run("umount", ["-l", point], { check: false, timeoutMs: 1e4 });
  }
}
async function deleteLink(name) {
  const shown = await run("ip", ["link", "show", "dev", name], { check: false });
  if (shown.code === 0) await run("ip", ["link", "del", "dev", name], { check: false });
}
function shimSocketPath(argv) {
  const flag = (name) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : void 0;
  };
  const address = flag("-address");
  const ns = flag("-namespace");
  const id = flag("-id");
  if (!address || !ns || !id) return void 0;
  const digest = createHash3("sha256").update(join8(address, ns, id)).digest("hex");
  return `/run/containerd/s/${digest}`;
}
async function removeByPrefix(dir, prefix) {
  const entries = await readdir(dir).catch(() => []);
  for (const entry of entries) {
    if (entry.startsWith(prefix)) await rm2(join8(dir, entry), { recursive: true, force: true });
  }
}

// test/rig/containerd.ts
var CONTAINERD_BIN = "/usr/bin/containerd";
var CNI_RESULTS_DIR = "/var/lib/cni/results";
var ID_DIRS = [
  "root/io.containerd.grpc.v1.cri/sandboxes",
  "root/io.containerd.grpc.v1.cri/containers",
  "state/io.containerd.runtime.v2.task/k8s.io"
];
var PATH_ENV2 = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
async function startContainerd(opts) {
  const dir = await makeTempDir("ist-ctd-");
  const socket = join9(dir, "c.sock");
  const paths = {
    root: join9(dir, "root"),
    state: join9(dir, "state"),
    cniConfDir: join9(dir, "net.d"),
    certsDir: join9(dir, "certs.d"),
    leaseDir: join9(dir, "cni-leases"),
    logPath: join9(dir, "containerd.log"),
    configPath: join9(dir, "config.toml")
  };
  for (const d of [paths.root, paths.state, paths.cniConfDir, paths.certsDir, paths.leaseDir]) await mkdir4(d);
  const network = await writeBridgeConflist(paths.cniConfDir, paths.leaseDir);
  let pid;
  const cleanup = () => teardown({ dir, socket, network, pid });
  try {
    const addPlainHttpRegistry = async (host) => {
      await mkdir4(join9(paths.certsDir, host), { recursive: true });
      await writeFile6(join9(paths.certsDir, host, "hosts.toml"), plainHttpHostsToml(host));
    };
    for (const host of opts.plainHttpRegistries ?? []) await addPlainHttpRegistry(host);
    const streamPort = await freePort();
    await writeFile6(paths.configPath, containerdConfigToml({
      root: paths.root,
      state: paths.state,
      socket,
      sandboxImage: opts.sandboxImage,
      streamPort,
      cniBinDir: CNI_BIN_DIR,
      cniConfDir: paths.cniConfDir,
      certsDir: paths.certsDir
    }));
    const logFd = openSync2(paths.logPath, "a");
    const child = spawn3(CONTAINERD_BIN, ["--config", paths.configPath], {
      stdio: ["ignore", logFd, logFd],
      env: { ...process.env, PATH: PATH_ENV2 }
    });
    closeSync2(logFd);
    child.unref();
    pid = child.pid;
    if (pid === void 0) throw new Error("containerd did not start");
    await writeOwner(dir, { containerdPid: pid, socket, network });
    const endpoint = `unix://${socket}`;
    await waitCriReady(endpoint, pid, paths.logPath);
    return {
      endpoint,
      socket,
      streamAddress: `127.0.0.1:${streamPort}`,
      cniConfDir: paths.cniConfDir,
      network,
      certsDir: paths.certsDir,
      dir,
      pid,
      logPath: paths.logPath,
      addPlainHttpRegistry,
      stop: cleanup
    };
  } catch (error) {
    const log = await readFile6(paths.logPath, "utf8").catch(() => "");
    await cleanup();
    const tail = log.split("\n").slice(-20).join("\n");
    throw new Error(`${error.message}
containerd log tail:
${tail}`);
  }
}
async function waitCriReady(endpoint, pid, logPath) {
  const client = openCriClient(endpoint);
  try {
    await waitFor(async () => {
      if (!await pidAlive(pid)) throw new GiveUp(`containerd exited; see ${logPath}`);
      const res = await client.runtime("Status", {}, 2e3).catch((error) => {
        if (error.code === 12) throw new GiveUp(`containerd serves no CRI; see ${logPath}`);
        throw error;
      });
      const conditions = res.status?.conditions ?? [];
      const ready = (type) => conditions.some((c2) => c2.type === type && c2.status);
      return ready("RuntimeReady") && ready("NetworkReady");
    }, { timeoutMs: 6e4, intervalMs: 200, what: `containerd CRI at ${endpoint}` });
  } finally {
    client.close();
  }
}
async function teardown(input) {
  const { dir, socket, network, pid } = input;
  if (pid !== void 0 && await commandLineMentions(pid, dir)) {
    await removeAllPods(`unix://${socket}`).catch(() => void 0);
    await stopPid(pid, 1e4);
  }
  const ids = await knownTaskIds(dir);
  const processes = await listProcesses();
  const shims = processes.filter((p) => p.argv[0]?.includes("containerd-shim") && p.argv.some((a) => a.includes(dir)));
  for (const shim of shims) {
    const at = shim.argv.indexOf("-id");
    if (at >= 0 && shim.argv[at + 1]) ids.add(shim.argv[at + 1]);
  }
  const tasks = processes.filter((p) => !shims.includes(p) && (inCgroupOf(p, ids) || p.argv.some((a) => a.includes(dir)) || isUnder(p.root, dir) || isUnder(p.cwd, dir)));
  await killPids(tasks.map((p) => p.pid));
  await killPids(shims.map((p) => p.pid));
  for (const shim of shims) {
    const sock = shimSocketPath(shim.argv);
    if (sock) await rm3(sock, { force: true });
  }
  await removeCgroupsNamed(ids);
  await unmountUnder(dir);
  await deleteLink(network.bridge);
  await rm3(join9("/var/lib/cni/networks", network.name), { recursive: true, force: true });
  await removeByPrefix(CNI_RESULTS_DIR, `${network.name}-`);
  for (const id of ids) await rm3(join9(CNI_RESULTS_DIR, `cni-loopback-${id}-lo`), { force: true });
  await removeTempDir(dir);
}
async function knownTaskIds(dir) {
  const ids = /* @__PURE__ */ new Set();
  for (const sub of ID_DIRS) {
    for (const id of await readdir2(join9(dir, sub)).catch(() => [])) {
      if (/^[0-9a-f]{64}$/.test(id)) ids.add(id);
    }
  }
  return ids;
}
async function removeAllPods(endpoint) {
  const client = openCriClient(endpoint);
  try {
    const list = await client.runtime("ListPodSandbox", {}, 5e3);
    for (const pod2 of list.items ?? []) {
      await client.runtime("StopPodSandbox", { podSandboxId: pod2.id }, 15e3).catch(() => void 0);
      await client.runtime("RemovePodSandbox", { podSandboxId: pod2.id }, 15e3).catch(() => void 0);
    }
  } finally {
    client.close();
  }
}

// test/rig/zz-dead.ts
var r = await startRegistry();
var imgs = await pushRigImages(r.host);
var c = await startContainerd({ sandboxImage: imgs.pause, plainHttpRegistries: [r.host] });
var cli = openCriClient(c.endpoint);
var cfg = { metadata: { name: "dead", uid: "dead", namespace: "x" } };
var pod = await cli.runtime("RunPodSandbox", { config: cfg });
await cli.image("PullImage", { image: { image: imgs.busybox } });
var ctr = await cli.runtime("CreateContainer", { podSandboxId: pod.podSandboxId, config: { metadata: { name: "c" }, image: { image: imgs.busybox }, command: ["sleep", "3600"] }, sandboxConfig: cfg });
await cli.runtime("StartContainer", { containerId: ctr.containerId });
console.log("READY", c.dir, r.dir, pod.podSandboxId, c.network.bridge);
process.kill(process.pid, "SIGKILL");
