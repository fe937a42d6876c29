/*
 * pinns: makes a pod's namespaces and pins them, with no process left behind
 * (CRI-O's pinns idea). One run:
 *
 *   pinns [--net=FILE] [--ipc=FILE] [--uts=FILE] [--hostname=NAME] [--sysctl=KEY=VALUE]...
 *
 * unshares the namespaces named, brings `lo` up in a new network namespace,
 * sets NAME in a new UTS namespace, writes each sysctl under /proc/sys (it now
 * shows the new namespaces), bind-mounts /proc/self/ns/{net,ipc,uts} on the
 * FILEs (created here, mode 0444) and exits. Containers join the FILEs.
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
#include <sys/socket.h>
#include <unistd.h>

#define MAX_SYSCTLS 128

enum ns_kind { NS_NET, NS_IPC, NS_UTS, NS_COUNT };

static const char *const ns_names[NS_COUNT] = {"net", "ipc", "uts"};
static const int ns_flags[NS_COUNT] = {CLONE_NEWNET, CLONE_NEWIPC, CLONE_NEWUTS};

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

int main(int argc, char **argv) {
  const char *hostname = NULL;
  const char *sysctls[MAX_SYSCTLS];
  int nsysctls = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (has_prefix(a, "--net=")) pins[NS_NET] = a + 6;
    else if (has_prefix(a, "--ipc=")) pins[NS_IPC] = a + 6;
    else if (has_prefix(a, "--uts=")) pins[NS_UTS] = a + 6;
    else if (has_prefix(a, "--hostname=")) hostname = a + 11;
    else if (has_prefix(a, "--sysctl=")) {
      if (nsysctls == MAX_SYSCTLS) fail("more than %s sysctls", "128", 0);
      sysctls[nsysctls++] = a + 9;
    } else fail("unknown argument \"%s\" (usage: pinns [--net=F] [--ipc=F] [--uts=F] [--hostname=N] [--sysctl=K=V]...)", a, 0);
  }
  int flags = 0;
  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    if (pins[i][0] != '/') fail("pin path \"%s\" is not absolute", pins[i], 0);
    flags |= ns_flags[i];
  }
  if (!flags) fail("%s", "nothing to pin", 0);
  if (hostname && !pins[NS_UTS]) fail("--hostname=%s needs --uts", hostname, 0);
  for (int i = 0; i < nsysctls; i++) check_sysctl(sysctls[i]);

  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    int fd = open(pins[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
    if (fd < 0) fail("creating %s", pins[i], errno);
    created[i] = 1;
    close(fd);
  }
  if (unshare(flags) < 0) fail("%s", "unshare", errno);
  if (pins[NS_NET]) loopback_up();
  if (hostname && sethostname(hostname, strlen(hostname)) < 0) fail("sethostname %s", hostname, errno);
  for (int i = 0; i < nsysctls; i++) write_sysctl(sysctls[i]);
  for (int i = 0; i < NS_COUNT; i++) {
    if (!pins[i]) continue;
    char source[32];
    snprintf(source, sizeof(source), "/proc/self/ns/%s", ns_names[i]);
    if (mount(source, pins[i], NULL, MS_BIND, NULL) < 0) fail("bind-mounting onto %s", pins[i], errno);
    mounted[i] = 1;
  }
  return 0;
}
