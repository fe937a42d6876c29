#!/bin/sh
# pgrep PATTERN: the PIDs of processes whose name contains PATTERN, one a line; exit 1 when none.
# The subset of procps pgrep the CRI validation suite uses (Debian's busybox has no pgrep applet).
if [ $# -ne 1 ]; then
  echo "usage: pgrep PATTERN" >&2
  exit 2
fi
found=1
for dir in /proc/[0-9]*; do
  name=$(cat "$dir/comm" 2>/dev/null) || continue
  [ "${dir#/proc/}" = "$$" ] && continue
  case $name in
    *"$1"*) echo "${dir#/proc/}"; found=0 ;;
  esac
done
exit $found
