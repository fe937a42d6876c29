/*
 * pinns: makes a pod's namespaces and pins them, with no process left behind
 * (CRI-O's pinns idea). One run:
 *
 *   pinns [--user=FILE --uid-map=C:H:L --gid-map=C:H:L] [--net=FILE] [--ipc=FILE] [--uts=FILE]
 *         [--hostname=NAME] [--sysctl=KEY=VALUE]...
 *
 * unshares the namespaces named, brings `lo` up in a new network namespace,
 * sets NAME in a new UTS namespace, writes each sysctl under /proc/sys (it now
 * shows the new namespaces), bind-mounts /proc/self/ns/{net,ipc,uts} on the
 * FILEs (created here, mode 0444) and exits. Containers join the FILEs.
 *
 * With --user, a child process first unshares a user namespace, this process
 * (root in the node's) writes the child's uid_map and gid_map (one mapping
 * each), and the child then makes the other namespaces, so they are owned by
 * the pod's user namespace and containers in it can join them. The child sets
 * lo, the hostname and the sysctls there; this process bind-mounts the child's
 * namespaces (user included) and ends it.
 *
 * Only namespaced sysctls are taken, as runc takes them: net.* with a new
 * network namespace, kernel.shm*, kernel.msg*, kernel.sem and fs.mqueue.* with
 * a new IPC namespace, kernel.domainname with a new UTS namespace. Everything
 * is checked before anything is made. On failure, what was made is undone and
 * the exit status is 1, with one line on stderr.
 * Built static by scripts/build-pause.mjs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_SYSCTLS 128

enum ns_kind { NS_NET, NS_IPC, NS_UTS, NS_USER, NS_COUNT };

static const char *const ns_names[NS_COUNT] = {"net", "ipc", "uts", "user"};
static const int ns_flags[NS_COUNT] = {CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS, CLONE_NEWUSER};

static const char *pins[NS_COUNT];
static int created[NS_COUNT];
static int mounted[NS_COUNT];

static void undo(void) {
  for (int i = 0; i < NS_COUNT; i++) {
    if (mounted[i]) umount2(pins[i], MNT_DETACH);
    if (created[i]) unlink(pins[i]);
  }
}

static void fail(const char *fmt, const char *arg, int err) {
  fprintf(stderr, "pinns: ");
  fprintf(stderr, fmt, arg);
  if (err) fprintf(stderr, ": %s", strerror(err));
  fputc('\n', stderr);
  undo();
  exit(1);
}

static int has_prefix(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The namespace a sysctl belongs to, or -1 when it is not namespaced (runc refuses those). */
static int sysctl_namespace(const char *key) {
  static const char *const ipc_keys[] = {"kernel.msgmax", "kernel.msgmnb", "kernel.msgmni", "kernel.sem",
                                         "kernel.shmall", "kernel.shmmax", "kernel.shmmni", "kernel.shm_rmid_forced"};
  for (size_t i = 0; i < sizeof(ipc_keys) / sizeof(ipc_keys[0]); i++)
    if (strcmp(key, ipc_keys[i]) == 0) return NS_IPC;
  if (has_prefix(key, "fs.mqueue.")) return NS_IPC;
  if (has_prefix(key, "net.")) return NS_NET;
  if (strcmp(key, "kernel.domainname") == 0) return NS_UTS;
  return -1;
}

static void check_sysctl(const char *entry) {
  const char *eq = strchr(entry, '=');
  if (!eq || eq == entry) fail("sysctl \"%s\" is not KEY=VALUE", entry, 0);
  char key[256];
  size_t len = (size_t)(eq - entry);
  if (len >= sizeof(key)) fail("sysctl \"%s\": key too long", entry, 0);
  memcpy(key, entry, len);
  key[len] = 0;
  if (strstr(key, "..") || strchr(key, '/')) fail("sysctl \"%s\": bad key", entry, 0);
  int ns = sysctl_namespace(key);
  if (ns < 0) fail("sysctl \"%s\" is not in a separate kernel namespace", key, 0);
  if (!pins[ns]) fail("sysctl \"%s\" is not allowed in the host's namespace", key, 0);
}

static void write_sysctl(const char *entry) {
  const char *eq = strchr(entry, '=');
  char path[300] = "/proc/sys/";
  size_t at = strlen(path);
  for (const char *c = entry; c < eq; c++) path[at++] = *c == '.' ? '/' : *c;
  path[at] = 0;
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("sysctl %s", path, errno);
  const char *value = eq + 1;
  ssize_t n = write(fd, value, strlen(value));
  int err = errno;
  close(fd);
  if (n < 0) fail("sysctl %s", path, err);
}

static void loopback_up(void) {
  int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("%s: socket", "lo", errno);
  struct ifreq ifr;
  memset(&ifr, 0, sizeof(ifr));
  strncpy(ifr.ifr_name, "lo", IFNAMSIZ - 1);
  if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) fail("%s: SIOCGIFFLAGS", "lo", errno);
  ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
  if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) fail("%s: SIOCSIFFLAGS", "lo", errno);
  close(fd);
}

/* "C:H:L" with C 0 and L > 0, as the uid_map line "C H L". */
static void check_map(const char *map, const char *what) {
  unsigned long c, h, l;
  char extra;
  if (sscanf(map, "%lu:%lu:%lu%c", &c, &h, &l, &extra) != 3 || l == 0) fail("%s is not CONTAINER:HOST:LENGTH", what, 0);
}

static void write_map(pid_t pid, const char *file, const char *map) {
  unsigned long c, h, l;
  sscanf(map, "%lu:%lu:%lu", &c, &h, &l);
  char path[64], line[96];
  snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
  int n = snprintf(line, sizeof(line), "%lu %lu %lu\n", c, h, l);
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) fail("opening %s", path, errno);
  ssize_t w = write(fd, line, (size_t)n);
  int err = errno;
  close(fd);
  if (w != n) fail("writing %s", path, w < 0 ? err : EIO);
}

/* In the namespaces just made: lo, hostname, sysctls. Exits on failure (the caller undoes). */
static void set_up(const char *hostname, const char **sysctls, int nsysctls) {
  if (pins[NS_NET]) loopback_up();
  if (hostname && sethostname(hostname, strlen(hostname)) < 0) fail("sethostname %s", hostname, errno);
  for (int i = 0; i < nsysctls; i++) write_sysctl(sysctls[i]);
}

static pid_t child = 0;

static void end_child(void) {
  if (child > 0) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    child = 0;
  }
}

static void read_byte(int fd, const char *what) {
  char c;
  ssize_t n;
  do n = read(fd, &c, 1); while (n < 0 && errno == EINTR);
  if (n != 1) fail("%s", what, n < 0 ? errno : 0);
}

/*
 * The user-namespace path: a child unshares CLONE_NEWUSER and waits; we write its maps; it
 * unshares the rest (owned by its user namespace, where it has every capability) and sets them
 * up; we pin the namespaces in /proc/CHILD/ns and kill it. Returns the PID whose namespaces are to be pinned.
 */
static pid_t unshare_in_userns(int flags, const char *uid_map, const char *gid_map, const char *hostname, const char **sysctls, int nsysctls) {
  int up[2], down[2];
  if (pipe2(up, O_CLOEXEC) < 0 || pipe2(down, O_CLOEXEC) < 0) fail("%s", "pipe", errno);
  child = fork();
  if (child < 0) fail("%s", "fork", errno);
  if (child == 0) {
    /* The child never undoes (the parent does): its failures just exit non-zero. */
    for (int i = 0; i < NS_COUNT; i++) created[i] = 0;
    close(up[0]);
    close(down[1]);
    if (unshare(CLONE_NEWUSER) < 0) fail("%s", "unshare user", errno);
    if (write(up[1], "u", 1) != 1) _exit(1);
    read_byte(down[0], "waiting for the id maps");
    /* Root of the pod's user namespace: IPC sysctls there are writable by its root uid only. */
    if (setresgid(0, 0, 0) < 0 || setresuid(0, 0, 0) < 0) fail("%s", "becoming root in the user namespace", errno);
    if (unshare(flags & ~CLONE_NEWUSER) < 0) fail("%s", "unshare", errno);
    set_up(hostname, sysctls, nsysctls);
    if (write(up[1], "r", 1) != 1) _exit(1);
    /* Stays until the parent has pinned the namespaces and kills it (or exits: EOF). */
    char c;
    while (read(down[0], &c, 1) < 0 && errno == EINTR) {}
    _exit(0);
  }
  close(up[1]);
  close(down[0]);
  atexit(end_child);
  read_byte(up[0], "the child could not make a user namespace");
  write_map(child, "uid_map", uid_map);
  /* We hold CAP_SETGID in the parent namespace, so gid_map needs no setgroups "deny". */
  write_map(child, "gid_map", gid_map);
  if (write(down[1], "g", 1) != 1) fail("%s", "signalling the child", errno);
  read_byte(up[0], "making the pod's namespaces in its user namespace failed");
  return child;
}

int main(int argc, char **argv) {
  const char *hostname = NULL;
  const char *uid_map = NULL, *gid_map = NULL;
  const char *sysctls[MAX_SYSCTLS];
  int nsysctls = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (has_prefix(a, "--net=")) pins[NS_NET] = a + 6;
    else if (has_prefix(a, "--ipc=")) pins[NS_IPC] = a + 6;
    else if (has_prefix(a, "--uts=")) pins[NS_UTS] = a + 6;
    else if (has_prefix(a, "--user=")) pins[NS_USER] = a + 7;
    else if (has_prefix(a, "--uid-map=")) uid_map = a + 10;
    else if (has_prefix(a, "--gid-map=")) gid_map = a + 10;
    else if (has_prefix(a, "--hostname=")) hostname = a + 11;
    else if (has_prefix(a, "--sysctl=")) {
      if (nsysctls == MAX_SYSCTLS) fail("more than %s sysctls", "128", 0);
      sysctls[nsysctls++] = a + 9;
    } else fail("unknown argument \"%s\" (usage: pinns [--user=F --uid-map=C:H:L --gid-map=C:H:L] [--net=F] [--ipc=F] [--uts=F] [--hostname=N] [--sysctl=K=V]...)", a, 0);
  }
  int flags = 0;
  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    if (pins[i][0] != '/') fail("pin path \"%s\" is not absolute", pins[i], 0);
    flags |= ns_flags[i];
  }
  if (!flags) fail("%s", "nothing to pin", 0);
  if (hostname && !pins[NS_UTS]) fail("--hostname=%s needs --uts", hostname, 0);
  if (pins[NS_USER]) {
    if (!uid_map || !gid_map) fail("%s", "--user needs --uid-map and --gid-map", 0);
    check_map(uid_map, "--uid-map");
    check_map(gid_map, "--gid-map");
  } else if (uid_map || gid_map) fail("%s", "--uid-map and --gid-map need --user", 0);
  for (int i = 0; i < nsysctls; i++) check_sysctl(sysctls[i]);

  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    int fd = open(pins[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (fd < 0) fail("creating %s", pins[i], errno);
    created[i] = 1;
    close(fd);
  }
  const char *proc = "self";
  char pid_text[16];
  if (pins[NS_USER]) {
    snprintf(pid_text, sizeof(pid_text), "%d", (int)unshare_in_userns(flags, uid_map, gid_map, hostname, sysctls, nsysctls));
    proc = pid_text;
  } else {
    if (unshare(flags) < 0) fail("%s", "unshare", errno);
    set_up(hostname, sysctls, nsysctls);
  }
  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    char source[48];
    snprintf(source, sizeof(source), "/proc/%s/ns/%s", proc, ns_names[i]);
    if (mount(source, pins[i], NULL, MS_BIND, NULL) < 0) fail("bind-mounting onto %s", pins[i], errno);
    mounted[i] = 1;
  }
  end_child();
  return 0;
}
