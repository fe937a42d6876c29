#!/bin/sh
# ipcs -m: this IPC namespace's shared memory segments, laid out as util-linux prints them.
# The subset of ipcs the CRI validation suite uses (Debian's busybox has no ipcs applet).
if [ "$*" != "-m" ]; then
  echo "usage: ipcs -m" >&2
  exit 2
fi
echo
echo "------ Shared Memory Segments --------"
echo "key        shmid      owner      perms      bytes      nattch     status"
tail -n +2 /proc/sysvipc/shm | while read -r key shmid perms size cpid lpid nattch uid rest; do
  printf '0x%08x %-10s %-10s %-10s %-10s %-10s\n' "$key" "$shmid" "$uid" "$perms" "$size" "$nattch"
done
echo
