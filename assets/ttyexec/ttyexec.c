/*
 * ttyexec: the parent of one TTY exec session's process, in place of conmon. One run:
 *
 *   ttyexec PIDFILE RUNTIME ARG...     (fd 3: a socket to the daemon)
 *
 * becomes a child subreaper, then waits for one byte on fd 3: 'g' runs `RUNTIME ARG...` (the
 * daemon's `runc exec -d --tty --console-socket ... --pid-file PIDFILE`); anything else, or the
 * end of fd 3 (the session was given up, or the daemon died), exits without running anything.
 * runc hands the terminal's master side to the daemon over the console socket and exits; the
 * exec'd process is then reparented to us, so we can wait for it. Lines on fd 3:
 *
 *   pid N        the process runs (after `runc exec -d` exited 0)
 *   error TEXT   runc failed; TEXT is the first line it printed (the exit status is then 1)
 *   exit CODE    the process ended: its exit code, or 128 + the signal that killed it
 *
 * Orphans reparented to us while we wait are reaped. A daemon that dies while the process runs
 * does not stop us: we wait for the process (it gets SIGHUP once the last master fd closes) and
 * exit, reaped by init. Built static by scripts/build-pause.mjs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define DAEMON_FD 3

static void say(const char *fmt, const char *text, long n) {
  char line[600];
  int len = text ? snprintf(line, sizeof line, fmt, text) : snprintf(line, sizeof line, fmt, n);
  if (len < 0) return;
  if (len >= (int)sizeof line) len = sizeof line - 1;
  /* The daemon may be gone: then nobody reads it (SIGPIPE is ignored). */
  while (write(DAEMON_FD, line, (size_t)len) < 0 && errno == EINTR) {
  }
}

static int code_of(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 255;
}

/* runc's message: the last line it printed. */
static void runtime_failed(int err_fd, int status) {
  char buf[4096];
  ssize_t n = read(err_fd, buf, sizeof buf - 1);
  if (n < 0) n = 0;
  buf[n] = 0;
  while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ')) buf[--n] = 0;
  char *last = strrchr(buf, '\n');
  char *text = last ? last + 1 : buf;
  char fallback[64];
  if (!*text) {
    snprintf(fallback, sizeof fallback, "runtime exited with status %d", code_of(status));
    text = fallback;
  }
  say("error %s\n", text, 0);
}

static long read_pid(const char *file) {
  char buf[32] = {0};
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return n > 0 ? strtol(buf, NULL, 10) : -1;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: ttyexec PIDFILE RUNTIME ARG...  (fd 3: the daemon)\n");
    return 2;
  }
  signal(SIGPIPE, SIG_IGN);
  if (fcntl(DAEMON_FD, F_SETFD, FD_CLOEXEC) < 0) return 2;
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
    say("error prctl(PR_SET_CHILD_SUBREAPER): %s\n", strerror(errno), 0);
    return 1;
  }
  char go = 0;
  ssize_t got;
  while ((got = read(DAEMON_FD, &go, 1)) < 0 && errno == EINTR) {
  }
  if (got != 1 || go != 'g') return 0; /* given up before it ran: nothing runs */

  int err[2];
  if (pipe2(err, O_CLOEXEC) < 0) {
    say("error pipe: %s\n", strerror(errno), 0);
    return 1;
  }
  pid_t runtime = fork();
  if (runtime < 0) {
    say("error fork: %s\n", strerror(errno), 0);
    return 1;
  }
  if (runtime == 0) {
    dup2(err[1], 1);
    dup2(err[1], 2);
    execvp(argv[2], argv + 2);
    dprintf(2, "exec %s: %s\n", argv[2], strerror(errno));
    _exit(127);
  }
  close(err[1]);
  int status;
  while (waitpid(runtime, &status, 0) < 0) {
    if (errno != EINTR) {
      say("error waitpid: %s\n", strerror(errno), 0);
      return 1;
    }
  }
  /* What runc printed is in the pipe by now; do not wait for other holders of its write end. */
  fcntl(err[0], F_SETFL, O_NONBLOCK);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    runtime_failed(err[0], status);
    return 1;
  }
  close(err[0]);
  long pid = read_pid(argv[1]);
  if (pid <= 0) {
    say("error no pid in %s\n", argv[1], 0);
    return 1;
  }
  say("pid %ld\n", NULL, pid);
  for (;;) {
    pid_t r = waitpid(-1, &status, 0);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      /* No child left without having seen ours: it was never ours to reap. */
      say("error waitpid: %s\n", strerror(errno), 0);
      return 1;
    }
    if (r == pid) break;
  }
  say("exit %ld\n", NULL, code_of(status));
  return 0;
}
