// bench/daemon/daemon-bench.ts
import { spawn as spawn5 } from "node:child_process";
import { readFile as readFile8 } from "node:fs/promises";

// test/rig/cli.ts
import { fileURLToPath } from "node:url";

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

// test/rig/cli.ts
var REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

// test/rig/containerd.ts
import { spawn as spawn2 } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdir, readdir as readdir2, readFile as readFile4, rm as rm3, writeFile as writeFile3 } from "node:fs/promises";
import { join as join4 } from "node:path";

// test/rig/cni-conf.ts
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
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
  const confPath = join(confDir, `10-${name}.conflist`);
  await writeFile(confPath, `${JSON.stringify(conflist, null, 2)}
`);
  return { name, bridge, subnet, gateway, leaseDir, confPath };
}
async function unusedOctet() {
  const { stdout } = await run("ip", ["-4", "route", "show", "table", "all"], { check: false });
  const routes = stdout.split("\n").map((line) => line.split(" ").slice(0, 2).map(parseCidr).find((r) => r !== void 0)).filter((r) => r !== void 0);
  for (let attempt = 0; attempt < 50; attempt++) {
    const octet = 2 + randomBytes(1)[0] % 250;
    const ours = parseCidr(`10.88.${octet}.0/24`);
    if (!routes.some((r) => overlaps(r, ours))) return octet;
  }
  throw new Error("no unused 10.88.x.0/24 subnet found");
}
function parseCidr(text) {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(?:\/(\d+))?$/.exec(text);
  if (!match) return void 0;
  const [a, b, c, d] = match.slice(1, 5).map(Number);
  const bits = match[5] === void 0 ? 32 : Number(match[5]);
  return { base: (a << 24 | b << 16 | c << 8 | d) >>> 0, bits };
}
function overlaps(x, y) {
  const bits = Math.min(x.bits, y.bits);
  if (bits === 0) return false;
  const mask = 4294967295 << 32 - bits >>> 0;
  return (x.base & mask) >>> 0 === (y.base & mask) >>> 0;
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

// test/rig/host-cleanup.ts
import { createHash } from "node:crypto";
import { readdir, readFile as readFile2, readlink, rm, rmdir } from "node:fs/promises";
import { join as join2 } from "node:path";
import { setTimeout as sleep2 } from "node:timers/promises";
async function listProcesses() {
  const out = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === 1 || pid === process.pid) continue;
    try {
      const argv = (await readFile2(`/proc/${pid}/cmdline`, "utf8")).split("\0").filter(Boolean);
      const root = await readlink(`/proc/${pid}/root`).catch(() => "");
      const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => "");
      const cgroupFile = await readFile2(`/proc/${pid}/cgroup`, "utf8").catch(() => "");
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
      const path = join2(dir, entry.name);
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
      await sleep2(50);
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
    if (alive.length > 0) await sleep2(50);
  }
  return alive;
}
async function mountsUnder(dir) {
  const info = await readFile2("/proc/self/mountinfo", "utf8");
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
  const digest = createHash("sha256").update(join2(address, ns, id)).digest("hex");
  return `/run/containerd/s/${digest}`;
}
async function removeByPrefix(dir, prefix) {
  const entries = await readdir(dir).catch(() => []);
  for (const entry of entries) {
    if (entry.startsWith(prefix)) await rm(join2(dir, entry), { recursive: true, force: true });
  }
}

// test/rig/owner.ts
import { readFile as readFile3, writeFile as writeFile2 } from "node:fs/promises";
import { join as join3 } from "node:path";
var FILE = "owner.json";
async function processStart(pid) {
  const stat2 = await readFile3(`/proc/${pid}/stat`, "utf8").catch(() => void 0);
  if (!stat2) return void 0;
  return stat2.slice(stat2.lastIndexOf(")") + 2).split(" ")[19];
}
async function writeOwner(dir, data) {
  const record = { ownerPid: process.pid, ownerStart: await processStart(process.pid) ?? "", data };
  await writeFile2(join3(dir, FILE), JSON.stringify(record));
}

// test/rig/temp-dir.ts
import { mkdtemp, rm as rm2 } from "node:fs/promises";
function makeTempDir(prefix = "ist-") {
  return mkdtemp(`/tmp/${prefix}`);
}
async function removeTempDir(dir) {
  if (!dir.startsWith("/tmp/") || dir.includes("..")) throw new Error(`refusing to remove ${dir}`);
  await rm2(dir, { recursive: true, force: true, maxRetries: 3 });
}

// test/rig/wait.ts
import { setTimeout as sleep3 } from "node:timers/promises";
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
    await sleep3(interval);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : "";
  throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}${reason}`);
}

// test/rig/containerd.ts
var CONTAINERD_BIN = "/usr/bin/containerd";
var CNI_RESULTS_DIR = "/var/lib/cni/results";
var ID_DIRS = [
  "root/io.containerd.grpc.v1.cri/sandboxes",
  "root/io.containerd.grpc.v1.cri/containers",
  "state/io.containerd.runtime.v2.task/k8s.io"
];
var PATH_ENV = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
async function startContainerd(opts) {
  const dir = await makeTempDir("ist-ctd-");
  const socket = join4(dir, "c.sock");
  const paths = {
    root: join4(dir, "root"),
    state: join4(dir, "state"),
    cniConfDir: join4(dir, "net.d"),
    certsDir: join4(dir, "certs.d"),
    leaseDir: join4(dir, "cni-leases"),
    logPath: join4(dir, "containerd.log"),
    configPath: join4(dir, "config.toml")
  };
  for (const d of [paths.root, paths.state, paths.cniConfDir, paths.certsDir, paths.leaseDir]) await mkdir(d);
  const network = await writeBridgeConflist(paths.cniConfDir, paths.leaseDir);
  let pid;
  const cleanup = () => teardown({ dir, socket, network, pid });
  try {
    const addPlainHttpRegistry = async (host) => {
      await mkdir(join4(paths.certsDir, host), { recursive: true });
      await writeFile3(join4(paths.certsDir, host, "hosts.toml"), plainHttpHostsToml(host));
    };
    for (const host of opts.plainHttpRegistries ?? []) await addPlainHttpRegistry(host);
    const streamPort = await freePort();
    await writeFile3(paths.configPath, containerdConfigToml({
      root: paths.root,
      state: paths.state,
      socket,
      sandboxImage: opts.sandboxImage,
      streamPort,
      cniBinDir: CNI_BIN_DIR,
      cniConfDir: paths.cniConfDir,
      certsDir: paths.certsDir
    }));
    const logFd = openSync(paths.logPath, "a");
    const child = spawn2(CONTAINERD_BIN, ["--config", paths.configPath], {
      stdio: ["ignore", logFd, logFd],
      env: { ...process.env, PATH: PATH_ENV }
    });
    closeSync(logFd);
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
    const log = await readFile4(paths.logPath, "utf8").catch(() => "");
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
      const ready = (type) => conditions.some((c) => c.type === type && c.status);
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
  await rm3(join4("/var/lib/cni/networks", network.name), { recursive: true, force: true });
  await removeByPrefix(CNI_RESULTS_DIR, `${network.name}-`);
  for (const id of ids) await rm3(join4(CNI_RESULTS_DIR, `cni-loopback-${id}-lo`), { force: true });
  await removeTempDir(dir);
}
async function knownTaskIds(dir) {
  const ids = /* @__PURE__ */ new Set();
  for (const sub of ID_DIRS) {
    for (const id of await readdir2(join4(dir, sub)).catch(() => [])) {
      if (/^[0-9a-f]{64}$/.test(id)) ids.add(id);
    }
  }
  return ids;
}
async function removeAllPods(endpoint) {
  const client = openCriClient(endpoint);
  try {
    const list = await client.runtime("ListPodSandbox", {}, 5e3);
    for (const pod of list.items ?? []) {
      await client.runtime("StopPodSandbox", { podSandboxId: pod.id }, 15e3).catch(() => void 0);
      await client.runtime("RemovePodSandbox", { podSandboxId: pod.id }, 15e3).catch(() => void 0);
    }
  } finally {
    client.close();
  }
}

// test/rig/images.ts
import { createHash as createHash2 } from "node:crypto";
import { chmod as chmod2, mkdir as mkdir3, readFile as readFile5, rename, stat } from "node:fs/promises";
import { join as join7 } from "node:path";

// test/rig/busybox-rootfs.ts
import { chmod, chown, copyFile, mkdir as mkdir2, symlink, writeFile as writeFile4 } from "node:fs/promises";
import { join as join5 } from "node:path";
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
    await mkdir2(join5(rootfs, dir), { recursive: true });
  }
  await mkdir2(join5(rootfs, "tmp"), { recursive: true });
  await chmod(join5(rootfs, "tmp"), 1023);
  await chmod(join5(rootfs, "root"), 448);
  await chown(join5(rootfs, "home/app"), 1e3, 1e3);
  await copyFile(BUSYBOX_BIN, join5(rootfs, "bin/busybox"));
  await chmod(join5(rootfs, "bin/busybox"), 493);
  for (const applet of await listApplets()) {
    if (applet === "busybox") continue;
    await symlink("busybox", join5(rootfs, "bin", applet));
  }
  await writeFile4(join5(rootfs, "etc/passwd"), `${PASSWD}
`);
  await writeFile4(join5(rootfs, "etc/group"), `${GROUP}
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
import { join as join6 } from "node:path";
var UMOCI = "umoci";
async function buildOciLayout(layout, scratch, recipe) {
  const [first, ...others] = recipe.tags;
  if (!first) throw new Error("an image recipe needs at least one tag");
  const image = `${layout}:${first}`;
  const bundle = join6(scratch, "bundle");
  await run(UMOCI, ["init", "--layout", layout]);
  await run(UMOCI, ["new", "--image", image]);
  await run(UMOCI, ["unpack", "--image", image, bundle]);
  await recipe.populate(join6(bundle, "rootfs"));
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
import { fileURLToPath as fileURLToPath3 } from "node:url";
var PAUSE_SOURCE = fileURLToPath3(new URL("../../assets/pause/pause.c", import.meta.url));
async function compilePause(out) {
  await run("gcc", ["-static", "-O2", "-s", "-o", out, PAUSE_SOURCE], { timeoutMs: 12e4 });
}

// test/rig/images.ts
var RECIPE_VERSION = "1";
var CACHE_ROOT = process.env.ISULATS_RIG_CACHE ?? "/tmp/isulats-rig-cache";
var BUSYBOX_REPO = "library/busybox";
var BUSYBOX_TAGS = ["latest", "1.35"];
var PAUSE_REPO = "pause";
var PAUSE_TAG = "3.9";
var PATH_ENV2 = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
async function rigImageLayouts() {
  const key = await inputHash();
  const dir = join7(CACHE_ROOT, key);
  const layouts = { busybox: join7(dir, "busybox"), pause: join7(dir, "pause") };
  if (await exists(join7(dir, "complete"))) return layouts;
  await mkdir3(CACHE_ROOT, { recursive: true });
  const scratch = await makeTempDir("ist-img-");
  try {
    const staged = join7(scratch, "out");
    await mkdir3(staged);
    await buildOciLayout(join7(staged, "busybox"), await subdir(scratch, "bb"), {
      tags: BUSYBOX_TAGS,
      populate: populateBusyboxRootfs,
      cmd: ["sh"],
      env: [PATH_ENV2]
    });
    await buildOciLayout(join7(staged, "pause"), await subdir(scratch, "pause"), {
      tags: [PAUSE_TAG],
      populate: async (rootfs) => {
        await compilePause(join7(rootfs, "pause"));
        await chmod2(join7(rootfs, "pause"), 493);
      },
      entrypoint: ["/pause"],
      env: [PATH_ENV2]
    });
    await run("touch", [join7(staged, "complete")]);
    await rename(staged, dir).catch(async (error) => {
      if (!await exists(join7(dir, "complete"))) throw error;
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
  hash.update(await readFile5(BUSYBOX_BIN));
  hash.update(await readFile5(PAUSE_SOURCE));
  return hash.digest("hex").slice(0, 16);
}
async function subdir(parent, name) {
  const dir = join7(parent, name);
  await mkdir3(dir);
  return dir;
}
async function exists(path) {
  return stat(path).then(() => true, () => false);
}

// test/rig/pod-configs.ts
import { randomUUID } from "node:crypto";
import { writeFile as writeFile5 } from "node:fs/promises";
import { join as join8 } from "node:path";
import { stringify as toYaml } from "yaml";
var NAMESPACE_MODES = { POD: 0, CONTAINER: 1, NODE: 2, TARGET: 3 };
function podConfig(opts) {
  const ns = opts.namespaces ?? {};
  const config = {
    metadata: {
      name: opts.name,
      uid: opts.uid ?? randomUUID(),
      namespace: opts.namespace ?? "default",
      attempt: opts.attempt ?? 0
    },
    linux: {
      security_context: {
        namespace_options: {
          network: NAMESPACE_MODES[ns.network ?? "POD"],
          pid: NAMESPACE_MODES[ns.pid ?? "CONTAINER"],
          ipc: NAMESPACE_MODES[ns.ipc ?? "POD"]
        }
      }
    }
  };
  if (opts.logDirectory !== void 0) config.log_directory = opts.logDirectory;
  if (opts.hostname !== void 0) config.hostname = opts.hostname;
  if (opts.labels) config.labels = opts.labels;
  if (opts.annotations) config.annotations = opts.annotations;
  return { ...config, ...opts.extra };
}
function containerConfig(opts) {
  const config = {
    metadata: { name: opts.name, attempt: opts.attempt ?? 0 },
    image: { image: opts.image },
    linux: {}
  };
  if (opts.command) config.command = opts.command;
  if (opts.args) config.args = opts.args;
  if (opts.logPath !== void 0) config.log_path = opts.logPath;
  if (opts.labels) config.labels = opts.labels;
  if (opts.annotations) config.annotations = opts.annotations;
  return { ...config, ...opts.extra };
}
async function writePodConfig(dir, opts) {
  return writeConfig(dir, `pod-${opts.name}`, podConfig(opts), opts.format);
}
async function writeContainerConfig(dir, opts) {
  return writeConfig(dir, `ctr-${opts.name}`, containerConfig(opts), opts.format);
}
async function writeConfig(dir, base, config, format = "json") {
  const path = join8(dir, `${base}.${format === "yaml" ? "yaml" : "json"}`);
  await writeFile5(path, format === "yaml" ? toYaml(config) : `${JSON.stringify(config, null, 2)}
`);
  return path;
}

// test/rig/registry.ts
import { spawn as spawn3 } from "node:child_process";
import { openSync as openSync2, closeSync as closeSync2 } from "node:fs";
import { mkdir as mkdir4, writeFile as writeFile7 } from "node:fs/promises";
import { join as join10 } from "node:path";

// test/rig/htpasswd.ts
import { writeFile as writeFile6 } from "node:fs/promises";
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
  await writeFile6(path, `${lines.join("\n")}
`, { mode: 384 });
}

// test/rig/token-cert.ts
import { createHash as createHash3, X509Certificate } from "node:crypto";
import { readFile as readFile6 } from "node:fs/promises";
import { join as join9 } from "node:path";
async function makeTokenSigningCert(dir) {
  const keyPath = join9(dir, "token.key");
  const certPath = join9(dir, "token.crt");
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
  const cert = new X509Certificate(await readFile6(certPath));
  return { keyPath, certPath, certDer: cert.raw.toString("base64"), keyId: libtrustKeyId(cert) };
}
function libtrustKeyId(cert) {
  const spki = cert.publicKey.export({ type: "spki", format: "der" });
  const digest = createHash3("sha256").update(spki).digest().subarray(0, 30);
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
  const storage = join10(dir, "storage");
  await mkdir4(storage);
  const config = {
    version: "0.1",
    log: { level: "info", accesslog: { disabled: true } },
    storage: { filesystem: { rootdirectory: storage }, delete: { enabled: true } },
    http: { addr: host, secret: "isulats-test-secret" },
    health: { storagedriver: { enabled: false } }
  };
  let token;
  if (opts.htpasswd) {
    const path = join10(dir, "htpasswd");
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
  const configPath = join10(dir, "config.yml");
  await writeFile7(configPath, JSON.stringify(config, null, 2));
  const logPath = join10(dir, "registry.log");
  const logFd = openSync2(logPath, "a");
  const child = spawn3(REGISTRY_BIN, ["serve", configPath], { stdio: ["ignore", logFd, logFd] });
  closeSync2(logFd);
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

// test/e2e/helpers/isulats-daemon.ts
import { spawn as spawn4 } from "node:child_process";
import { closeSync as closeSync3, existsSync as existsSync2, openSync as openSync3, rmSync } from "node:fs";
import { mkdir as mkdir5, readdir as readdir3, readFile as readFile7, rm as rm4, writeFile as writeFile8 } from "node:fs/promises";
import { join as join11 } from "node:path";
var CNI_RESULTS_DIR2 = "/var/lib/cni/results";
async function startIsulatsDaemon(opts = {}) {
  const dir = await makeTempDir("ist-d-");
  const paths = {
    socket: join11(dir, "d.sock"),
    root: join11(dir, "root"),
    state: join11(dir, "state"),
    pidfile: join11(dir, "d.pid"),
    configPath: join11(dir, "daemon.json"),
    logPath: join11(dir, "daemon.log"),
    cniConfDir: join11(dir, "net.d"),
    leaseDir: join11(dir, "cni-leases")
  };
  await mkdir5(paths.cniConfDir);
  await mkdir5(paths.leaseDir);
  const network = await writeBridgeConflist(paths.cniConfDir, paths.leaseDir);
  const config = {
    graph: paths.root,
    state: paths.state,
    hosts: [`unix://${paths.socket}`],
    pidfile: paths.pidfile,
    "cni-conf-dir": paths.cniConfDir,
    "cni-bin-dir": CNI_BIN_DIR,
    "websocket-server-listening-port": await freePort(),
    "log-level": opts.logLevel ?? "info",
    ...opts.podSandboxImage ? { "pod-sandbox-image": opts.podSandboxImage } : {},
    ...opts.extraConfig
  };
  await writeFile8(paths.configPath, `${JSON.stringify(config, null, 2)}
`);
  let pid = 0;
  const endpoint = `unix://${paths.socket}`;
  const launcher = opts.launcher ?? (process.env.ISULATS_E2E_DAEMON === "source" ? "source" : "bin");
  const start = async () => {
    const argv = launcher === "source" ? [await sourceBundle(), "--config-file", paths.configPath] : [join11(REPO_ROOT, "bin/isulats"), "daemon", "--config-file", paths.configPath];
    const logFd = openSync3(paths.logPath, "a");
    const child = spawn4(process.execPath, argv, {
      cwd: REPO_ROOT,
      stdio: ["ignore", logFd, logFd],
      env: { ...process.env, ISULATS_NATIVE: process.env.ISULATS_NATIVE ?? join11(REPO_ROOT, "build/Release/isulats.node") }
    });
    closeSync3(logFd);
    child.unref();
    if (child.pid === void 0) throw new Error("isulats daemon did not start");
    pid = child.pid;
    await waitReady(endpoint, paths.socket, pid, paths.logPath);
  };
  const stopProcess = async () => {
    if (pid && await commandLineMentions(pid, paths.configPath)) await stopPid(pid, 2e4);
  };
  const cleanup = async () => {
    if (pid && await commandLineMentions(pid, paths.configPath)) {
      await removeAllPods2(endpoint).catch(() => void 0);
      await stopProcess();
    }
    await reapLeftovers(dir, network);
  };
  try {
    await start();
  } catch (error) {
    const log = await readFile7(paths.logPath, "utf8").catch(() => "");
    await cleanup();
    throw new Error(`${error.message}
daemon log tail:
${log.split("\n").slice(-20).join("\n")}`);
  }
  return {
    dir,
    endpoint,
    network,
    ...paths,
    get pid() {
      return pid;
    },
    stopProcess,
    start,
    cleanup
  };
}
var bundled;
function sourceBundle() {
  bundled ??= (async () => {
    const out = join11(REPO_ROOT, ".tmp", `ist-e2e-daemon-${process.pid}.mjs`);
    const entry = join11(REPO_ROOT, ".tmp", `ist-e2e-daemon-${process.pid}-entry.ts`);
    await mkdir5(join11(REPO_ROOT, ".tmp"), { recursive: true });
    await writeFile8(entry, [
      `import spec from ${JSON.stringify(join11(REPO_ROOT, "src/commands/daemon.ts"))};`,
      `import { parseCommandArgv } from ${JSON.stringify(join11(REPO_ROOT, "src/cli/main.ts"))};`,
      `import { makeContext } from ${JSON.stringify(join11(REPO_ROOT, "src/cli/context.ts"))};`,
      "const parsed = await parseCommandArgv(spec, process.argv.slice(2));",
      'const code = await spec.run(makeContext("daemon", parsed)).catch((e) => { process.stderr.write(`isulats: ${e.message}\\n`); return 1; });',
      "process.exit(code ?? 0);"
    ].join("\n"));
    const esbuild = await import("esbuild");
    try {
      await esbuild.build({ entryPoints: [entry], bundle: true, platform: "node", format: "esm", packages: "external", outfile: out, logLevel: "error" });
    } finally {
      await rm4(entry, { force: true });
    }
    process.once("exit", () => rmSync(out, { force: true }));
    return out;
  })();
  return bundled;
}
async function waitReady(endpoint, socket, pid, logPath) {
  await waitFor(async () => {
    if (!await pidAlive(pid)) throw new GiveUp(`isulats daemon exited; see ${logPath}`);
    return existsSync2(socket);
  }, { timeoutMs: 6e4, intervalMs: 100, what: `daemon socket ${socket}` });
  const client = openCriClient(endpoint);
  try {
    await waitFor(async () => {
      const res = await client.runtime("Version", {}, 2e3);
      return Boolean(res.runtimeName);
    }, { timeoutMs: 3e4, intervalMs: 200, what: `daemon CRI at ${endpoint}` });
  } finally {
    client.close();
  }
}
async function removeAllPods2(endpoint) {
  const client = openCriClient(endpoint);
  try {
    const list = await client.runtime("ListPodSandbox", {}, 1e4);
    for (const pod of list.items ?? []) {
      await client.runtime("StopPodSandbox", { podSandboxId: pod.id }, 3e4).catch(() => void 0);
      await client.runtime("RemovePodSandbox", { podSandboxId: pod.id }, 3e4).catch(() => void 0);
    }
  } finally {
    client.close();
  }
}
async function knownIds(dir) {
  const ids = /* @__PURE__ */ new Set();
  const walk = async (path, depth) => {
    if (depth > 5) return;
    const entries = await readdir3(path, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (/^[0-9a-f]{64}$/.test(entry.name)) ids.add(entry.name);
      else if (entry.isDirectory() && !/^(rootfs|merged|diff|layers|blobs|images|content|snapshots?)$/.test(entry.name)) {
        await walk(join11(path, entry.name), depth + 1);
      }
    }
  };
  await walk(join11(dir, "state"), 0);
  await walk(join11(dir, "root"), 0);
  return ids;
}
function ourMonitors(processes, dir) {
  return processes.filter((p) => (p.argv[0] ?? "").endsWith("conmon") && p.argv.some((a) => a.includes(dir)));
}
async function reapLeftovers(dir, network) {
  const ids = await knownIds(dir);
  const processes = await listProcesses();
  const monitors = ourMonitors(processes, dir);
  const tasks = processes.filter((p) => !monitors.includes(p) && (inCgroupOf(p, ids) || p.argv.some((a) => a.includes(dir)) || isUnder(p.root, dir) || isUnder(p.cwd, dir)));
  await killPids(tasks.map((p) => p.pid));
  await killPids(monitors.map((p) => p.pid));
  await removeCgroupsNamed(ids);
  await unmountUnder(dir);
  await deleteLink(network.bridge);
  await rm4(join11("/var/lib/cni/networks", network.name), { recursive: true, force: true });
  await removeByPrefix(CNI_RESULTS_DIR2, `${network.name}-`);
  for (const id of ids) await rm4(join11(CNI_RESULTS_DIR2, `cni-loopback-${id}-lo`), { force: true });
  await removeTempDir(dir);
}

// bench/daemon/daemon-bench.ts
var iterations = Number(process.argv[2] ?? "5");
var batches = (process.argv[3] ?? "1,10,50").split(",").map(Number);
var CLI_TIMEOUT = "120s";
var median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
function cli(target, args) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn5(process.execPath, ["bin/isulats", "-r", target.endpoint, "-t", CLI_TIMEOUT, ...args], { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    const err = [];
    child.stdout.on("data", (b) => out.push(b));
    child.stderr.on("data", (b) => err.push(b));
    const timer = setTimeout(() => child.kill("SIGKILL"), 3e5);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), ms: Number(process.hrtime.bigint() - t0) / 1e6 });
    });
  });
}
async function must(target, args) {
  const r = await cli(target, args);
  if (r.code !== 0) throw new Error(`${target.name}: isulats ${args.join(" ")} exited ${r.code}: ${r.stderr.trim()}`);
  return r;
}
async function vmRssKb(pid) {
  const text = await readFile8(`/proc/${pid}/status`, "utf8").catch(() => "");
  const m = /^VmRSS:\s+(\d+) kB/m.exec(text);
  return m ? Number(m[1]) : 0;
}
function monitorsOf(target, processes) {
  if (target.name === "isulats") return ourMonitors(processes, target.dir);
  return processes.filter((p) => (p.argv[0] ?? "").includes("containerd-shim-runc-v2") && p.argv.some((a) => a.includes(target.dir)));
}
async function summedRssKb(pids) {
  let sum = 0;
  for (const pid of pids) sum += await vmRssKb(pid);
  return sum;
}
var OPS = ["runp", "create", "start", "exec -s", "stop", "stopp", "rmp"];
async function lifecycleOnce(target, dir, image, tag) {
  const pod = await writePodConfig(dir, { name: `lc-${target.name}-${tag}` });
  const ctr = await writeContainerConfig(dir, { name: `lc-${target.name}-${tag}`, image, command: ["sleep", "3600"] });
  const times = {};
  const runp = await must(target, ["runp", pod]);
  times.runp = runp.ms;
  const podId = runp.stdout.trim();
  const create = await must(target, ["create", podId, ctr, pod]);
  times.create = create.ms;
  const cid = create.stdout.trim();
  times.start = (await must(target, ["start", cid])).ms;
  times["exec -s"] = (await must(target, ["exec", "-s", cid, "true"])).ms;
  times.stop = (await must(target, ["stop", cid])).ms;
  times.stopp = (await must(target, ["stopp", podId])).ms;
  times.rmp = (await must(target, ["rmp", podId])).ms;
  return times;
}
async function runningCount(target) {
  const r = await cli(target, ["ps", "-q", "--state", "running"]);
  return r.code === 0 ? r.stdout.split("\n").filter(Boolean).length : -1;
}
async function batch(target, dir, image, n) {
  const configs = [];
  for (let i = 0; i < n; i++) {
    const name = `b${n}-${target.name}-${i}`;
    configs.push([
      await writeContainerConfig(dir, { name, image, command: ["sleep", "3600"] }),
      await writePodConfig(dir, { name })
    ]);
  }
  const t0 = process.hrtime.bigint();
  const results = await Promise.all(configs.map(([ctr, pod]) => cli(target, ["run", "--no-pull", ctr, pod])));
  let running = await runningCount(target);
  for (let i = 0; i < 600 && running < n; i++) {
    await new Promise((r) => setTimeout(r, 50));
    running = await runningCount(target);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const failures = results.filter((r) => r.code !== 0);
  for (const f of failures.slice(0, 3)) console.error(`  ${target.name} run failed (${f.code}): ${f.stderr.trim()}`);
  const monitors = monitorsOf(target, await listProcesses());
  const result = {
    n,
    ms: running >= n ? ms : NaN,
    daemonKb: await vmRssKb(target.pid),
    monitorKb: await summedRssKb(monitors.map((p) => p.pid)),
    monitors: monitors.length,
    failures: failures.length
  };
  await cli(target, ["rmp", "-a", "-f"]);
  return result;
}
var fmt = (x, digits = 0) => Number.isFinite(x) ? x.toFixed(digits) : "n/a";
var mb = (kb) => fmt(kb / 1024, 1);
async function main() {
  let registry;
  let containerd;
  let daemon;
  const dir = await makeTempDir("ist-bd-");
  try {
    registry = await startRegistry();
    const images = await pushRigImages(registry.host);
    containerd = await startContainerd({ sandboxImage: images.pause, plainHttpRegistries: [registry.host] });
    daemon = await startIsulatsDaemon({ podSandboxImage: images.pause });
    const targets = [
      { name: "isulats", endpoint: daemon.endpoint, pid: daemon.pid, dir: daemon.dir },
      { name: "containerd", endpoint: containerd.endpoint, pid: containerd.pid, dir: containerd.dir }
    ];
    for (const t of targets) {
      await must(t, ["pull", images.busybox]);
      await must(t, ["pull", images.pause]);
      await lifecycleOnce(t, dir, images.busybox, "warm");
    }
    const samples = {};
    for (const t of targets) samples[t.name] = Object.fromEntries(OPS.map((op) => [op, []]));
    for (let i = 0; i < iterations; i++) {
      for (const t of i % 2 ? [...targets].reverse() : targets) {
        const times = await lifecycleOnce(t, dir, images.busybox, String(i));
        for (const op of OPS) samples[t.name][op].push(times[op]);
      }
    }
    console.log(`
(a) lifecycle, median wall ms of whole CLI calls over ${iterations} iterations`);
    console.log(`${"operation".padEnd(10)}${"isulats".padStart(10)}${"containerd".padStart(12)}${"ratio".padStart(8)}  target <= 1.00`);
    for (const op of OPS) {
      const a = median(samples.isulats[op]);
      const b = median(samples.containerd[op]);
      console.log(`${op.padEnd(10)}${fmt(a).padStart(10)}${fmt(b).padStart(12)}${fmt(a / b, 2).padStart(8)}  ${a <= b ? "met" : "missed"}`);
    }
    console.log("\n(b) iSulad method: N concurrent `run --no-pull CONTAINER-CONFIG POD-CONFIG`");
    console.log(`${"N".padStart(3)}  ${"time ms isulats/ctrd (less)".padEnd(32)}${"daemon RSS MB isulats/ctrd".padEnd(30)}${"monitor RSS MB conmon(n)/shim(n) ratio".padEnd(42)}failed`);
    for (const n of batches) {
      const r = {};
      for (const t of targets) r[t.name] = await batch(t, dir, images.busybox, n);
      const a = r.isulats;
      const b = r.containerd;
      const less = 1 - a.ms / b.ms;
      const monRatio = a.monitorKb / b.monitorKb;
      console.log(`${String(n).padStart(3)}  ${`${fmt(a.ms)}/${fmt(b.ms)} (${fmt(less * 100)}%)`.padEnd(32)}${`${mb(a.daemonKb)}/${mb(b.daemonKb)} (${fmt(a.daemonKb / b.daemonKb, 2)}x)`.padEnd(30)}${`${mb(a.monitorKb)}(${a.monitors})/${mb(b.monitorKb)}(${b.monitors}) ${fmt(monRatio, 3)}x`.padEnd(42)}${a.failures}/${b.failures}`);
      if (n === Math.max(...batches)) {
        console.log(`targets at N=${n}: time >= 75% less: ${less >= 0.75 ? "met" : "missed"} (${fmt(less * 100)}%); monitor RSS <= 0.15x: ${monRatio <= 0.15 ? "met" : "missed"} (${fmt(monRatio, 3)}x); daemon RSS <= containerd: ${a.daemonKb <= b.daemonKb ? "met" : "missed"} (${fmt(a.daemonKb / b.daemonKb, 2)}x)`);
      }
    }
  } finally {
    for (const t of [daemon ? daemon.endpoint : void 0, containerd?.endpoint]) {
      if (t) await cli({ name: "isulats", endpoint: t, pid: 0, dir: "" }, ["rmp", "-a", "-f"]).catch(() => void 0);
    }
    await daemon?.cleanup().catch((e) => console.error(`daemon cleanup: ${e.message}`));
    await containerd?.stop().catch((e) => console.error(`containerd cleanup: ${e.message}`));
    await registry?.stop().catch((e) => console.error(`registry cleanup: ${e.message}`));
    await removeTempDir(dir);
  }
}
main().catch((error) => {
  console.error(`bench: ${error.message}`);
  process.exitCode = 1;
});
