/*
 * crun-hybrid: crun on a hybrid cgroup host. crun 1.8 refuses a cgroup v1
 * host whose cgroup2 hierarchy (/sys/fs/cgroup/unified) holds a controller
 * ("cgroups in hybrid mode not supported, drop all controllers from
 * cgroupv2"). Configured as a runtime handler's path in place of crun:
 *
 *   crun-hybrid [crun's arguments...]
 *
 * enters a mount namespace of its own, covers the unified hierarchy there
 * with an empty tmpfs and execs the real crun with the same arguments. crun
 * tells the modes apart by the file system type at /sys/fs/cgroup/unified,
 * so it sees plain cgroup v1. In that mode it still makes and joins a
 * "unified" cgroup directory when /sys/fs/cgroup/unified exists: those land
 * in this tmpfs and vanish with the namespace. (Unmounting instead would
 * leave them, a directory and a cgroup.procs file per container, in the
 * host's /sys/fs/cgroup tmpfs under its unified mount, for good; and a
 * detaching unmount waits for an RCU grace period, a mount does not.)
 *
 * One process, two execs: stdio, environment, arguments, the PID (conmon and
 * the engine wait on it) and the exit status are crun's own. argv[0] becomes
 * crun's path, as crun reads a handler name from an argv[0] named crun-NAME.
 * The host's mounts are untouched: the namespace's mounts become slaves
 * first, so nothing done here propagates out, while host mounts still
 * propagate in (to the containers crun makes, as without this shim).
 *
 * The real crun: $CRUN_HYBRID_CRUN when set (an absolute path), else CRUN_PATH
 * (compiled in; /usr/bin/crun). On failure before crun runs: one line on
 * stderr and exit status 127 (crun cannot be run) or 125 (namespace set-up).
 * Built static by scripts/build-pause.mjs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#ifndef CRUN_PATH
#define CRUN_PATH "/usr/bin/crun"
#endif

#define UNIFIED "/sys/fs/cgroup/unified"

/* One line on stderr: "crun-hybrid: WHAT ARG[: strerror(err)]". */
static void fail(int status, const char *what, const char *arg, int err) {
  fprintf(stderr, "crun-hybrid: %s%s%s%s\n", what, arg, err ? ": " : "", err ? strerror(err) : "");
  exit(status);
}

int main(int argc, char **argv) {
  (void)argc;
  const char *crun = getenv("CRUN_HYBRID_CRUN");
  if (crun == NULL || *crun == '\0') crun = CRUN_PATH;
  if (crun[0] != '/') fail(127, "CRUN_HYBRID_CRUN is not an absolute path: ", crun, 0);

  if (unshare(CLONE_NEWNS) != 0) fail(125, "unshare of the mount namespace", "", errno);
  if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) fail(125, "making mounts slaves of the host's", "", errno);
  /* ENOENT: no unified hierarchy (a pure v1 or v2 host), nothing to cover. */
  if (mount("tmpfs", UNIFIED, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=1m,mode=755") != 0 && errno != ENOENT)
    fail(125, "covering ", UNIFIED, errno);

  argv[0] = (char *)crun;
  execv(crun, argv);
  fail(127, "cannot run ", crun, errno);
  return 127;
}
