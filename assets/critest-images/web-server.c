/*
 * Stand-in for the nginx of the CRI validation suite's images (registry.k8s.io/e2e-test-images/
 * nginx and gcr.io/k8s-staging-cri-tools/hostnet-nginx-*), for the isulats test rig. What the
 * suite looks at, and nothing more: a master process named nginx whose command line reads
 * "nginx: master process ...", its PID in /var/run/nginx.pid, and an HTTP server on $PORT
 * (default 80) serving /usr/share/nginx/html, here busybox httpd as the one worker. Exits 0 on
 * SIGTERM/SIGINT/SIGQUIT (as PID 1 it gets no default action). Built with `gcc -static -O2`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define SELF "/usr/sbin/nginx"
#define MASTER_ARGV0 "nginx: master process nginx -g daemon off;"

static pid_t worker;

static void on_stop(int sig) {
  (void)sig;
  if (worker > 0) kill(worker, SIGTERM);
  _exit(0);
}

int main(int argc, char **argv) {
  (void)argc;
  /* The name pidof and /proc/<pid>/cmdline show comes from exec: re-exec under the master's. */
  if (strcmp(argv[0], MASTER_ARGV0) != 0) {
    char *args[] = {MASTER_ARGV0, NULL};
    execv(SELF, args);
    perror("nginx: exec " SELF);
    return 1;
  }
  const char *port = getenv("PORT");
  if (!port || !*port) port = "80";

  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGQUIT, &sa, NULL);

  FILE *pidfile = fopen("/var/run/nginx.pid", "w");
  if (!pidfile) {
    perror("nginx: /var/run/nginx.pid");
    return 1;
  }
  fprintf(pidfile, "%d\n", (int)getpid());
  fclose(pidfile);

  worker = fork();
  if (worker < 0) {
    perror("nginx: fork");
    return 1;
  }
  if (worker == 0) {
    execl("/bin/busybox", "httpd", "-f", "-p", port, "-h", "/usr/share/nginx/html", (char *)NULL);
    perror("nginx: exec busybox httpd");
    _exit(127);
  }
  int status;
  while (waitpid(worker, &status, 0) < 0) {
  }
  fprintf(stderr, "nginx: worker exited\n");
  return 1;
}
