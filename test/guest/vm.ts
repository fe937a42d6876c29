// One qemu guest of the image scripts/guest/build-image.sh makes: booted from the image's own
// kernel and initrd through a throwaway qcow2 overlay (the cached base stays clean), reached over
// ssh on a loopback-only forwarded port, with a 9p share of a host dir at /mnt/host. Every step
// is bounded and logged to one file; stop() kills qemu by its PID and removes the overlay.
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../rig/free-port.js';
import { run, signalPid, pidAlive, type RunResult } from '../rig/proc.js';

export interface GuestImage {
  dir: string;
  root: string;
  kernel: string;
  initrd: string;
  key: string;
}

export function guestImage(dir: string): GuestImage {
  return { dir, root: join(dir, 'root.raw'), kernel: join(dir, 'vmlinuz'), initrd: join(dir, 'initrd.img'), key: join(dir, 'id_ed25519') };
}

/** The kernel command line of a node of the shape the issue describes (v2 only, AppArmor on). */
export const GUEST_CMDLINE =
  'root=/dev/vda rw console=ttyS0 systemd.unified_cgroup_hierarchy=1 apparmor=1 security=apparmor net.ifnames=0 panic=-1';

/** The guest's address for forwards to this host (see boot's `forwards`). */
export const GUEST_FORWARD_IP = '10.0.2.100';

export interface ShOptions {
  timeoutMs?: number;
  /** When false (the default), a non-zero exit resolves instead of throwing. */
  check?: boolean;
  input?: string | Buffer;
}

/** One single-quoted word for a POSIX shell. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export class GuestVm {
  private qemu?: ChildProcess;
  private exited = false;
  private master?: ChildProcess;
  port = 0;

  constructor(
    private readonly image: GuestImage,
    /** Scratch dir of this run: overlay, console log, ssh control socket. */
    readonly work: string,
    /** Host dir shared read-write at /mnt/host in the guest. */
    readonly share: string,
    readonly logFile: string,
  ) {}

  get consoleFile(): string {
    return join(this.work, 'console.log');
  }

  log(text: string): void {
    appendFileSync(this.logFile, text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Last `lines` lines of the serial console (the boot and anything the kernel said). */
  consoleTail(lines = 80): string {
    if (!existsSync(this.consoleFile)) return '(no console output)';
    return readFileSync(this.consoleFile, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /**
   * `forwards`: guest address `10.0.2.100:<guestPort>` reaches 127.0.0.1:<hostPort> on this host
   * (a registry for critest), one tcp-pipe.mjs per connection.
   */
  async boot(opts: { accel?: string; memMb?: number; cpus?: number; bootTimeoutMs?: number; forwards?: Array<{ guestPort: number; hostPort: number }> } = {}): Promise<void> {
    const overlay = join(this.work, 'overlay.qcow2');
    await run('qemu-img', ['create', '-q', '-f', 'qcow2', '-F', 'raw', '-b', this.image.root, overlay], { timeoutMs: 60_000 });
    this.port = await freePort();
    const accel = opts.accel ?? process.env.ISULATS_GUEST_ACCEL ?? 'tcg';
    const pipe = fileURLToPath(new URL('./tcp-pipe.mjs', import.meta.url));
    const guestfwd = (opts.forwards ?? []).map((f) => `,guestfwd=tcp:${GUEST_FORWARD_IP}:${f.guestPort}-cmd:${process.execPath} ${pipe} 127.0.0.1 ${f.hostPort}`).join('');
    const args = [
      '-name', 'isulats-guest', '-machine', 'q35', '-accel', accel, '-cpu', accel === 'kvm' ? 'host' : 'max',
      '-m', String(opts.memMb ?? 2048), '-smp', String(opts.cpus ?? 2),
      '-display', 'none', '-monitor', 'none', '-serial', `file:${this.consoleFile}`,
      '-kernel', this.image.kernel, '-initrd', this.image.initrd, '-append', GUEST_CMDLINE,
      '-drive', `file=${overlay},if=virtio,format=qcow2,cache=unsafe`,
      // Loopback only: nothing outside this host can reach the guest's sshd, and restrict=on keeps
      // the guest from reaching anything outside (npm's update check, for one).
      '-netdev', `user,id=n0,restrict=on,hostfwd=tcp:127.0.0.1:${this.port}-:22${guestfwd}`, '-device', 'virtio-net-pci,netdev=n0',
      '-virtfs', `local,path=${this.share},mount_tag=host0,security_model=none,id=host0`,
    ];
    this.log(`$ qemu-system-x86_64 ${args.join(' ')}`);
    const qemu = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.qemu = qemu;
    qemu.stderr!.on('data', (b: Buffer) => this.log(`[qemu] ${b.toString()}`));
    qemu.on('exit', (code, signal) => {
      this.exited = true;
      this.log(`[qemu] exited code=${code} signal=${signal}`);
    });
    await this.waitSsh(opts.bootTimeoutMs ?? 600_000);
  }

  /** Waits for sshd, then mounts the share (again after a reboot). */
  async waitSsh(timeoutMs: number, notBootId?: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.exited) throw new Error(`qemu exited during boot\n${this.consoleTail()}`);
      const probe = await this.ssh('cat /proc/sys/kernel/random/boot_id', { timeoutMs: 30_000, quiet: true }).catch(() => undefined);
      if (probe && probe.code === 0 && probe.stdout.trim() !== notBootId) break;
      if (Date.now() > deadline) throw new Error(`guest not reachable over ssh within ${timeoutMs} ms\n${this.consoleTail()}`);
      await sleep(3000);
    }
    this.startMaster();
    await this.sh('mountpoint -q /mnt/host || mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 host0 /mnt/host', {
      check: true,
      timeoutMs: 60_000,
    });
  }

  async bootId(): Promise<string> {
    return (await this.sh('cat /proc/sys/kernel/random/boot_id', { check: true })).stdout.trim();
  }

  /** A real reboot through systemd; resolves once the new boot answers over ssh. */
  async reboot(timeoutMs = 600_000): Promise<void> {
    const before = await this.bootId();
    // sshd goes away under us; the command's own result does not matter.
    await this.ssh('systemctl reboot', { timeoutMs: 30_000 }).catch(() => undefined);
    await this.closeMaster();
    await sleep(5000);
    await this.waitSsh(timeoutMs, before);
  }

  /** Runs a shell script in the guest as root (bash, `set -e` not implied). */
  async sh(script: string, opts: ShOptions = {}): Promise<RunResult> {
    // As an argument, not on stdin: commands in the script may read stdin.
    const res = await this.ssh(`bash -c ${shellQuote(script)}`, { ...opts, script });
    if (opts.check && res.code !== 0) {
      throw new Error(`guest command failed (exit ${res.code}): ${script}\n${res.stdout}\n${res.stderr}`);
    }
    return res;
  }

  private async ssh(command: string, opts: ShOptions & { quiet?: boolean; script?: string }): Promise<RunResult> {
    const args = [
      '-i', this.image.key, '-p', String(this.port),
      '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
      '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=20', '-o', 'ServerAliveInterval=10', '-o', 'ServerAliveCountMax=6',
      // Through the master connection when there is one: a TCG guest takes a second per key exchange.
      '-o', 'ControlMaster=no', '-o', `ControlPath=${this.controlPath}`,
      ...(opts.input === undefined ? ['-n'] : []),
      'root@127.0.0.1', command,
    ];
    const timeoutMs = opts.timeoutMs ?? 120_000;
    if (!opts.quiet) this.log(`$ ${opts.script ?? command}`);
    const res = await run('ssh', args, { input: opts.input, timeoutMs, check: false });
    if (!opts.quiet) {
      if (res.stdout) this.log(res.stdout);
      if (res.stderr) this.log(`[stderr] ${res.stderr}`);
      this.log(`[exit ${res.code}]`);
    }
    return res;
  }

  private get controlPath(): string {
    return join(this.work, 'ssh.ctl');
  }

  /** Our own child (no -f, no ControlPersist: those keep the first client's stderr open). */
  private startMaster(): void {
    const args = [
      '-i', this.image.key, '-p', String(this.port), '-M', '-N',
      '-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null', '-o', 'LogLevel=ERROR',
      '-o', 'BatchMode=yes', '-o', 'ConnectTimeout=20', '-o', 'ServerAliveInterval=10', '-o', 'ServerAliveCountMax=6',
      '-o', `ControlPath=${this.controlPath}`, 'root@127.0.0.1',
    ];
    this.master = spawn('ssh', args, { stdio: 'ignore' });
  }

  private async closeMaster(): Promise<void> {
    const pid = this.master?.pid;
    this.master = undefined;
    if (pid) signalPid(pid, 'SIGTERM');
    for (let i = 0; pid && i < 50 && (await pidAlive(pid)); i++) await sleep(100);
  }

  /** Kills qemu by PID (a clean shutdown is not needed: the overlay is thrown away). */
  async stop(): Promise<void> {
    await this.closeMaster();
    const pid = this.qemu?.pid;
    if (pid && !this.exited) {
      signalPid(pid, 'SIGTERM');
      for (let i = 0; i < 50 && (await pidAlive(pid)); i++) await sleep(100);
      if (await pidAlive(pid)) signalPid(pid, 'SIGKILL');
    }
  }
}
