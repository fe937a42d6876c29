/*
 * Minimal pod infra ("pause") process for the isulats test rig.
 * Holds the pod's namespaces open, reaps any child that gets re-parented to it,
 * and exits 0 on SIGINT/SIGTERM. Built with `gcc -static -O2`.
 */
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) {
  (void)sig;
  _exit(0);
}

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

static int install(int sig, void (*handler)(int), int flags) {
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = handler;
  sa.sa_flags = flags;
  sigemptyset(&sa.sa_mask);
  return sigaction(sig, &sa, NULL);
}

int main(void) {
  if (install(SIGINT, on_stop, 0) < 0 || install(SIGTERM, on_stop, 0) < 0 ||
      install(SIGCHLD, on_child, SA_NOCLDSTOP | SA_RESTART) < 0) {
    return 1;
  }
  for (;;) {
    pause();
  }
  return 42;
}
