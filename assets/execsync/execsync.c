/*
 * execsync: runs one ExecSync process in a running container, doing what `runc exec` (1.1)
 * does for a non-TTY process, without runc's two Go processes. Two modes:
 *
 *   execsync < PLAN            run a process; the plan (below) comes on stdin, and stdin is
 *                              then at its end for the process, as under `runc exec`
 *   execsync --plan FILE       the same with the plan read from FILE: the process gets this
 *                              stdin (a streaming exec's), as `runc exec --process FILE` does
 *   execsync --seccomp PID     write the seccomp filter installed on PID (the container's init,
 *                              put there by runc from the spec) to stdout, as raw sock_filter
 *                              records; exit 3 when PID does not have exactly one filter
 *
 * The plan is "key\0value\0" records, in the order the engine writes them:
 *   pid N            the container's init
 *   ns NAME          one of its namespaces to join (user, ipc, uts, net, pid, mnt, cgroup)
 *   cgroup FILE      a cgroup.procs file the process is written to (one per hierarchy)
 *   pidfile FILE     written with the process's host PID once it has exec'd
 *   oom N            /proc/self/oom_score_adj (as runc's nsexec writes it)
 *   rlimit "R S H"   setrlimit(R, soft S, hard H)
 *   keyring NAME     joins this session keyring (runc: "_ses.<id>")
 *   nnp 1            no_new_privs
 *   seccomp HEX      the filter to install (runc's, copied from the init by --seccomp)
 *   caps "B E P I A" bounding, effective, permitted, inheritable, ambient (hex masks)
 *   uid N, gid N, group N (each additional group)
 *   cwd DIR, env K=V (in order), arg A (in order)
 *
 * Order as runc's setns init: keyring, no_new_privs, seccomp when no_new_privs is off,
 * close-on-exec of inherited fds, chdir, bounding set, keep-caps, stdio owner, setgroups,
 * setgid, setuid, HOME, late chdir, capabilities, ambient set, seccomp when no_new_privs is on,
 * PATH lookup as Go's exec.LookPath, execve. Exit status: the process's (128 + signal when a
 * signal ended it); 255 with one line on stderr when it could not be started (no pid file then).
 * Built static by scripts/build-pause.mjs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/keyctl.h>
#include <grp.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_RAISE 2
#define PR_CAP_AMBIENT_LOWER 3
#endif
#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

/* Tables grow as the plan needs (env and argv as large as execve takes); this only stops a runaway plan. */
#define MAX_ITEMS (1 << 24)
/* The kernel's NGROUPS_MAX. */
#define MAX_GROUPS 65536

static int error_fd = 2;

/* One line on the error pipe (the parent prints it), then exit. */
static void fail(const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 1, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if (n > (int)sizeof line - 2) n = sizeof line - 2;
  line[n++] = '\n';
  while (write(error_fd, line, (size_t)n) < 0 && errno == EINTR) {
  }
  _exit(255);
}

struct plan {
  long pid;
  const char *ns[16];
  int nns;
  const char *cgroups[64];
  int ncgroups;
  const char *pidfile;
  const char *oom;
  const char *rlimits[32];
  int nrlimits;
  const char *keyring;
  int nnp;
  const char *seccomp;
  int has_caps;
  unsigned long long caps[5];
  long uid, gid;
  gid_t *groups;
  int ngroups, capgroups;
  const char *cwd;
  char **env; /* room for HOME= and the NULL after nenv */
  int nenv, capenv;
  char **args; /* room for the NULL after nargs */
  int nargs, capargs;
};

/* Makes room for `need` elements, doubling. */
static void *grow(void *arr, int *cap, int need, size_t elem, int max, const char *what) {
  if (need <= *cap) return arr;
  if (need > max) fail("too many %s in plan (more than %d)", what, max);
  int ncap = *cap ? *cap : 64;
  while (ncap < need) ncap = ncap > max / 2 ? max : ncap * 2;
  void *n = realloc(arr, (size_t)ncap * elem);
  if (!n) fail("out of memory for %d %s of the plan", ncap, what);
  *cap = ncap;
  return n;
}

static char *read_all(int fd, size_t *len) {
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (!buf) return NULL;
    if (n == cap) buf = realloc(buf, cap *= 2);
    if (!buf) return NULL;
    ssize_t r = read(fd, buf + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return NULL;
    if (r == 0) break;
    n += (size_t)r;
  }
  *len = n;
  return buf;
}

static long number(const char *key, const char *text) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || *end || end == text) fail("bad %s in plan: %s", key, text);
  return v;
}

static void parse_plan(struct plan *p, char *buf, size_t len) {
  memset(p, 0, sizeof *p);
  p->uid = p->gid = -1;
  size_t i = 0;
  while (i < len) {
    char *key = buf + i;
    char *kend = memchr(key, 0, len - i);
    if (!kend || (size_t)(kend - buf) + 1 >= len) fail("truncated plan");
    char *val = kend + 1;
    char *vend = memchr(val, 0, len - (size_t)(val - buf));
    if (!vend) fail("truncated plan");
    i = (size_t)(vend - buf) + 1;
    if (!strcmp(key, "pid")) p->pid = number(key, val);
    else if (!strcmp(key, "ns") && p->nns < 16) p->ns[p->nns++] = val;
    else if (!strcmp(key, "cgroup") && p->ncgroups < 64) p->cgroups[p->ncgroups++] = val;
    else if (!strcmp(key, "pidfile")) p->pidfile = val;
    else if (!strcmp(key, "oom")) p->oom = val;
    else if (!strcmp(key, "rlimit") && p->nrlimits < 32) p->rlimits[p->nrlimits++] = val;
    else if (!strcmp(key, "keyring")) p->keyring = val;
    else if (!strcmp(key, "nnp")) p->nnp = 1;
    else if (!strcmp(key, "seccomp")) p->seccomp = val;
    else if (!strcmp(key, "caps")) {
      if (sscanf(val, "%llx %llx %llx %llx %llx", &p->caps[0], &p->caps[1], &p->caps[2], &p->caps[3], &p->caps[4]) != 5) fail("bad caps in plan");
      p->has_caps = 1;
    } else if (!strcmp(key, "uid")) p->uid = number(key, val);
    else if (!strcmp(key, "gid")) p->gid = number(key, val);
    else if (!strcmp(key, "group")) {
      p->groups = grow(p->groups, &p->capgroups, p->ngroups + 1, sizeof *p->groups, MAX_GROUPS, "groups");
      p->groups[p->ngroups++] = (gid_t)number(key, val);
    } else if (!strcmp(key, "cwd")) p->cwd = val;
    else if (!strcmp(key, "env")) {
      p->env = grow(p->env, &p->capenv, p->nenv + 3, sizeof *p->env, MAX_ITEMS, "env entries");
      p->env[p->nenv++] = val;
    } else if (!strcmp(key, "arg")) {
      p->args = grow(p->args, &p->capargs, p->nargs + 2, sizeof *p->args, MAX_ITEMS, "args");
      p->args[p->nargs++] = val;
    } else fail("unknown or repeated-too-often plan key %s", key);
  }
  p->env = grow(p->env, &p->capenv, p->nenv + 3, sizeof *p->env, MAX_ITEMS, "env entries");
  if (p->pid <= 0 || p->uid < 0 || p->gid < 0 || !p->has_caps || p->nargs == 0) fail("incomplete plan");
}

/* ---- namespaces ---- */

/* nsexec's order: user first. */
static const char *NS_ORDER[] = {"user", "ipc", "uts", "net", "pid", "mnt", "cgroup"};
#define NNS (sizeof NS_ORDER / sizeof NS_ORDER[0])

static int wanted(const struct plan *p, const char *name) {
  for (int i = 0; i < p->nns; i++)
    if (!strcmp(p->ns[i], name)) return 1;
  return 0;
}

/* fds of the init's namespaces the plan names (-1: not named, or the one we are in). */
static void open_namespaces(const struct plan *p, int fds[NNS]) {
  long pid = p->pid;
  for (size_t i = 0; i < NNS; i++) {
    char path[64], own[64];
    struct stat theirs, mine;
    fds[i] = -1;
    if (!wanted(p, NS_ORDER[i])) continue;
    snprintf(path, sizeof path, "/proc/%ld/ns/%s", pid, NS_ORDER[i]);
    snprintf(own, sizeof own, "/proc/self/ns/%s", NS_ORDER[i]);
    if (stat(path, &theirs) < 0) {
      fail("container process %ld is gone (%s: %s)", pid, path, strerror(errno));
    }
    if (stat(own, &mine) == 0 && mine.st_ino == theirs.st_ino && mine.st_dev == theirs.st_dev) continue;
    fds[i] = open(path, O_RDONLY | O_CLOEXEC);
    if (fds[i] < 0) fail("open %s: %s", path, strerror(errno));
  }
}

/* ---- seccomp ---- */

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void install_seccomp(const char *hex) {
  size_t n = strlen(hex);
  if (n == 0 || n % 16) fail("bad seccomp filter in plan");
  unsigned char *bytes = malloc(n / 2);
  if (!bytes) fail("out of memory");
  for (size_t i = 0; i < n / 2; i++) {
    int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) fail("bad seccomp filter in plan");
    bytes[i] = (unsigned char)(hi * 16 + lo);
  }
  struct sock_fprog prog = {.len = (unsigned short)(n / 16), .filter = (struct sock_filter *)bytes};
  /* runc with no filter flags loads it with prctl too. */
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) fail("unable to init seccomp: %s", strerror(errno));
}

static int dump_seccomp(long pid) {
  if (ptrace(PTRACE_SEIZE, (pid_t)pid, 0, 0) < 0) {
    fprintf(stderr, "ptrace seize %ld: %s\n", pid, strerror(errno));
    return 1;
  }
  int rc = 1;
  if (ptrace(PTRACE_INTERRUPT, (pid_t)pid, 0, 0) < 0) {
    fprintf(stderr, "ptrace interrupt %ld: %s\n", pid, strerror(errno));
    goto out;
  }
  int status;
  while (waitpid((pid_t)pid, &status, __WALL) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "waitpid %ld: %s\n", pid, strerror(errno));
      goto out;
    }
  }
  long count = ptrace(PTRACE_SECCOMP_GET_FILTER, (pid_t)pid, 0, NULL);
  if (count < 0 && errno == ENOENT) {
    rc = 3; /* no filter */
    goto out;
  }
  if (count <= 0) {
    fprintf(stderr, "ptrace seccomp get filter %ld: %s\n", pid, strerror(errno));
    goto out;
  }
  /* Exactly one filter, runc's: anything the container's process added itself is not ours to copy. */
  if (ptrace(PTRACE_SECCOMP_GET_FILTER, (pid_t)pid, 1, NULL) >= 0 || errno != ENOENT) {
    rc = 3;
    goto out;
  }
  struct sock_filter *filter = calloc((size_t)count, sizeof *filter);
  if (!filter || ptrace(PTRACE_SECCOMP_GET_FILTER, (pid_t)pid, 0, filter) != count) {
    fprintf(stderr, "ptrace seccomp get filter %ld: %s\n", pid, strerror(errno));
    goto out;
  }
  size_t left = (size_t)count * sizeof *filter;
  const char *at = (const char *)filter;
  while (left > 0) {
    ssize_t w = write(1, at, left);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) goto out;
    at += w;
    left -= (size_t)w;
  }
  rc = 0;
out:
  ptrace(PTRACE_DETACH, (pid_t)pid, 0, 0);
  return rc;
}

/* ---- capabilities ---- */

static int last_cap(void) {
  char buf[16] = {0};
  int fd = open("/proc/sys/kernel/cap_last_cap", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return CAP_LAST_CAP;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return n > 0 ? atoi(buf) : CAP_LAST_CAP;
}

static void apply_bounding(unsigned long long bounding, int last) {
  for (int c = 0; c <= last; c++) {
    if (bounding & (1ULL << c)) continue;
    if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 && errno != EINVAL) fail("unable to apply bounding set: %s", strerror(errno));
  }
}

static void apply_caps(const unsigned long long caps[5], int last) {
  struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
  struct __user_cap_data_struct data[2];
  memset(data, 0, sizeof data);
  for (int i = 0; i < 2; i++) {
    data[i].effective = (__u32)(caps[1] >> (32 * i));
    data[i].permitted = (__u32)(caps[2] >> (32 * i));
    data[i].inheritable = (__u32)(caps[3] >> (32 * i));
  }
  if (syscall(SYS_capset, &hdr, data) < 0) fail("unable to apply caps: %s", strerror(errno));
  for (int c = 0; c <= last; c++) {
    int action = (caps[4] & (1ULL << c)) ? PR_CAP_AMBIENT_RAISE : PR_CAP_AMBIENT_LOWER;
    if (prctl(PR_CAP_AMBIENT, action, c, 0, 0) < 0 && errno != EINVAL) fail("unable to apply caps: %s", strerror(errno));
  }
}

/* ---- user ---- */

/* The home of uid in the container's /etc/passwd ("/" when it has none), as runc's user lookup. */
static const char *home_of(long uid) {
  static char home[4096];
  strcpy(home, "/");
  FILE *f = fopen("/etc/passwd", "re");
  if (!f) return home;
  char line[8192];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char *fields[7] = {0};
    char *at = line;
    int n = 0;
    while (n < 7) {
      fields[n++] = at;
      char *colon = strchr(at, ':');
      if (!colon) break;
      *colon = 0;
      at = colon + 1;
    }
    if (n < 6 || !fields[2][0]) continue;
    char *end;
    long u = strtol(fields[2], &end, 10);
    if (*end || u != uid) continue;
    snprintf(home, sizeof home, "%s", fields[5]);
    break;
  }
  fclose(f);
  return home;
}

static void fix_stdio_owner(long uid) {
  struct stat null, st;
  if (stat("/dev/null", &null) < 0) fail("stat /dev/null: %s", strerror(errno));
  for (int fd = 0; fd < 3; fd++) {
    if (fstat(fd, &st) < 0) fail("fstat fd %d: %s", fd, strerror(errno));
    if ((long)st.st_uid == uid || st.st_rdev == null.st_rdev) continue;
    if (fchown(fd, (uid_t)uid, st.st_gid) < 0 && errno != EINVAL && errno != EPERM && errno != EROFS)
      fail("chown fd %d: %s", fd, strerror(errno));
  }
}

static int setgroups_allowed(void) {
  char buf[16] = {0};
  int fd = open("/proc/self/setgroups", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return !(n >= 4 && !strncmp(buf, "deny", 4));
}

/* ---- environment and the binary ---- */

static const char *env_get(struct plan *p, const char *name) {
  size_t len = strlen(name);
  for (int i = 0; i < p->nenv; i++)
    if (!strncmp(p->env[i], name, len) && p->env[i][len] == '=') return p->env[i] + len + 1;
  return NULL;
}

static size_t env_key_hash(const char *s, size_t len) {
  size_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return h;
}

/*
 * Go's os.Setenv over the spec's list: a later K=V replaces an earlier K in
 * place. Keys are found through a hash table, so thousands of variables
 * (kubelet's service links) cost a pass, not a scan per variable.
 */
static void build_env(struct plan *p) {
  size_t cap = 16;
  while (cap < (size_t)p->nenv * 2) cap <<= 1;
  int *slot = malloc(cap * sizeof *slot);
  if (!slot) fail("out of memory");
  for (size_t k = 0; k < cap; k++) slot[k] = -1;
  int n = 0;
  for (int i = 0; i < p->nenv; i++) {
    char *eq = strchr(p->env[i], '=');
    if (!eq) fail("invalid environment variable: \"%s\"", p->env[i]);
    if (eq == p->env[i]) fail("environment variable name can't be empty: \"%s\"", p->env[i]);
    size_t klen = (size_t)(eq - p->env[i]) + 1;
    size_t h = env_key_hash(p->env[i], klen) & (cap - 1);
    int j = -1;
    for (; slot[h] >= 0; h = (h + 1) & (cap - 1))
      if (!strncmp(p->env[slot[h]], p->env[i], klen)) {
        j = slot[h];
        break;
      }
    if (j >= 0) p->env[j] = p->env[i];
    else {
      slot[h] = n;
      p->env[n++] = p->env[i];
    }
  }
  free(slot);
  p->nenv = n;
  p->env[n] = NULL;
}

static void set_home(struct plan *p, const char *h) {
  char *entry = malloc(strlen(h) + 6);
  if (!entry) fail("out of memory");
  sprintf(entry, "HOME=%s", h);
  for (int i = 0; i < p->nenv; i++)
    if (!strncmp(p->env[i], "HOME=", 5)) {
      p->env[i] = entry;
      return;
    }
  p->env[p->nenv++] = entry;
  p->env[p->nenv] = NULL;
}

/* Go's findExecutable: 0 when path is a file with an execute bit, else an errno. */
static int executable(const char *path) {
  struct stat st;
  if (stat(path, &st) < 0) return errno;
  if (S_ISDIR(st.st_mode) || !(st.st_mode & 0111)) return EACCES;
  return 0;
}

/* Go's exec.LookPath with the process's PATH (errors worded as runc's). */
static char *look_path(struct plan *p) {
  const char *cmd = p->args[0];
  if (strchr(cmd, '/')) {
    int err = executable(cmd);
    if (err == EACCES) fail("exec: \"%s\": permission denied", cmd);
    if (err) fail("exec: \"%s\": stat %s: %s", cmd, cmd, strerror(err));
    return (char *)cmd;
  }
  const char *path = env_get(p, "PATH");
  if (path && *path) {
    const char *dir = path;
    for (;;) {
      const char *colon = strchr(dir, ':');
      size_t dlen = colon ? (size_t)(colon - dir) : strlen(dir);
      char *full = malloc(dlen + strlen(cmd) + 3);
      if (!full) fail("out of memory");
      if (dlen == 0) sprintf(full, "./%s", cmd); /* an empty entry is "." */
      else sprintf(full, "%.*s/%s", (int)dlen, dir, cmd);
      if (executable(full) == 0) {
        /* Go 1.19: a match through a relative PATH entry is refused (exec.ErrDot). */
        if (full[0] != '/') fail("exec: \"%s\": cannot run executable found relative to current directory", cmd);
        return full;
      }
      free(full);
      if (!colon) break;
      dir = colon + 1;
    }
  }
  fail("exec: \"%s\": executable file not found in $PATH", cmd);
  return NULL;
}

/* ---- the process ---- */

static void child(struct plan *p, int nsfds[NNS], int cgfds[], int errfd) {
  error_fd = errfd;
  for (int i = 0; i < p->ncgroups; i++) {
    if (write(cgfds[i], "0", 1) < 0) fail("join cgroup %s: %s", p->cgroups[i], strerror(errno));
    close(cgfds[i]);
  }
  if (p->oom) {
    int fd = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, p->oom, strlen(p->oom)) < 0) fail("failed to update /proc/self/oom_score_adj: %s", strerror(errno));
    close(fd);
  }
  for (int i = 0; i < p->nrlimits; i++) {
    int res;
    unsigned long long soft, hard;
    if (sscanf(p->rlimits[i], "%d %llu %llu", &res, &soft, &hard) != 3) fail("bad rlimit in plan");
    struct rlimit rl = {.rlim_cur = soft, .rlim_max = hard};
    if (setrlimit(res, &rl) < 0) fail("error setting rlimit type %d: %s", res, strerror(errno));
  }
  /* pid was joined by the parent (it takes effect for children only); the rest here, user first. */
  for (size_t i = 0; i < NNS; i++) {
    if (nsfds[i] < 0 || !strcmp(NS_ORDER[i], "pid")) continue;
    if (setns(nsfds[i], 0) < 0) fail("setns %s: %s", NS_ORDER[i], strerror(errno));
    close(nsfds[i]);
  }
  build_env(p);
  if (p->keyring && syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, p->keyring) < 0 && errno != ENOSYS)
    fail("unable to join session keyring: %s", strerror(errno));
  if (p->nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) fail("no_new_privs: %s", strerror(errno));
  if (p->seccomp && !p->nnp) install_seccomp(p->seccomp);
  /* finalizeNamespace */
  if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0) {
    for (int fd = 3; fd < 1024; fd++) fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  int late_chdir = 0;
  if (p->cwd && *p->cwd && chdir(p->cwd) < 0) {
    if (errno != EACCES && errno != EPERM) fail("chdir to cwd (\"%s\") set in config.json failed: %s", p->cwd, strerror(errno));
    late_chdir = 1;
  }
  int last = last_cap();
  apply_bounding(p->caps[0], last);
  if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0) fail("unable to set keep caps: %s", strerror(errno));
  /* Looked up as root, before the switch, as runc's user lookup. */
  const char *home = env_get(p, "HOME");
  const char *new_home = home && *home ? NULL : home_of(p->uid);
  fix_stdio_owner(p->uid);
  if (setgroups_allowed() && setgroups((size_t)p->ngroups, p->groups) < 0) fail("unable to setup user: setgroups: %s", strerror(errno));
  if (syscall(SYS_setgid, (gid_t)p->gid) < 0) fail("unable to setup user: setgid: %s", strerror(errno));
  if (syscall(SYS_setuid, (uid_t)p->uid) < 0) fail("unable to setup user: setuid: %s", strerror(errno));
  if (new_home) set_home(p, new_home);
  if (late_chdir && chdir(p->cwd) < 0) fail("chdir to cwd (\"%s\") set in config.json failed: %s", p->cwd, strerror(errno));
  if (prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0) < 0) fail("unable to clear keep caps: %s", strerror(errno));
  apply_caps(p->caps, last);
  if (p->seccomp && p->nnp) install_seccomp(p->seccomp);
  p->args[p->nargs] = NULL;
  char *binary = look_path(p);
  execve(binary, p->args, p->env);
  fail("exec %s: %s", binary, strerror(errno));
}

static int run(int planfd) {
  size_t len;
  char *buf = read_all(planfd, &len);
  if (planfd != 0) close(planfd);
  if (!buf) fail("read plan: %s", strerror(errno));
  static struct plan p;
  parse_plan(&p, buf, len);

  int nsfds[NNS];
  open_namespaces(&p, nsfds);
  int cgfds[64];
  for (int i = 0; i < p.ncgroups; i++) {
    cgfds[i] = open(p.cgroups[i], O_WRONLY | O_CLOEXEC);
    if (cgfds[i] < 0) fail("open %s: %s", p.cgroups[i], strerror(errno));
  }
  for (size_t i = 0; i < NNS; i++)
    if (nsfds[i] >= 0 && !strcmp(NS_ORDER[i], "pid") && setns(nsfds[i], CLONE_NEWPID) < 0) fail("setns pid: %s", strerror(errno));

  int errpipe[2];
  if (pipe2(errpipe, O_CLOEXEC) < 0) fail("pipe: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) fail("fork: %s", strerror(errno));
  if (pid == 0) {
    close(errpipe[0]);
    child(&p, nsfds, cgfds, errpipe[1]);
  }
  close(errpipe[1]);
  char msg[1024];
  size_t got = 0;
  for (;;) {
    ssize_t r = read(errpipe[0], msg + got, sizeof msg - 1 - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
    if (got == sizeof msg - 1) break;
  }
  msg[got] = 0;
  int status;
  if (got > 0) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    dprintf(2, "exec failed: unable to start container process: %s", msg);
    return 255;
  }
  /* Only now: no pid file tells the engine the process never ran (as under runc). The parent
   * joined no mount namespace, so the path is the host's. */
  if (p.pidfile) {
    int pidfd = open(p.pidfile, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (pidfd >= 0) {
      dprintf(pidfd, "%d", (int)pid);
      close(pidfd);
    }
  }
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 255;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 255;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--seccomp")) return dump_seccomp(strtol(argv[2], NULL, 10));
  if (argc == 3 && !strcmp(argv[1], "--plan")) {
    int fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      fprintf(stderr, "exec failed: open plan %s: %s", argv[2], strerror(errno));
      return 255;
    }
    return run(fd);
  }
  if (argc != 1) {
    fprintf(stderr, "usage: execsync < PLAN  |  execsync --plan FILE  |  execsync --seccomp PID\n");
    return 2;
  }
  return run(0);
}
