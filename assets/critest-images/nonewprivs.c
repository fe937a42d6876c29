/*
 * Stand-in for registry.k8s.io/e2e-test-images/nonewprivs (the CRI validation suite's NoNewPrivs
 * specs), for the isulats test rig: installed setuid root, it prints its effective UID, which is
 * 0 unless the no_new_privs flag made the kernel ignore the setuid bit.
 * Built with `gcc -static -O2`.
 */
#include <stdio.h>
#include <unistd.h>

int main(void) {
  printf("Effective uid: %d\n", (int)geteuid());
  return 0;
}
