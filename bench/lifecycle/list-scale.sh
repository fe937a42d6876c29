#!/usr/bin/env bash
# How listing scales: one pod with N containers in the embedded engine, then
# the median wall time of `isulats ps -a` and `isulats pods` (whole CLI calls),
# with the containers created and then running, next to `isulats version`
# (no engine) as the floor. Everything lives under a temporary root and CNI
# network and is removed at the end.
#   bash bench/lifecycle/list-scale.sh [N] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-100} runs=${2:-10}
work=$(mktemp -d /tmp/ist-ls-XXXXXX)
export ISULATS_CNI_CONF_DIR="$work/cni"
isulats() { node bin/isulats --root "$work/root" --state "$work/state" "$@"; }
cleanup() {
  set +e
  isulats rmp -a -f >/dev/null 2>&1
  grep -o " $work[^ ]*" /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m"; done
  ip link del isl-ls0 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$ISULATS_CNI_CONF_DIR" "$work/rootfs/bin" "$work/rootfs/etc"
. scripts/lib/free-subnet.sh
subnet=$(free_subnet 10.233 10.188 10.213 172.29 172.30) || { echo "no free /24 for the bench network" >&2; exit 1; }
cat >"$ISULATS_CNI_CONF_DIR/10-ls.conflist" <<JSON
{ "cniVersion": "1.0.0", "name": "isulats-ls", "plugins": [ { "type": "bridge", "bridge": "isl-ls0",
  "ipam": { "type": "host-local", "dataDir": "$work/leases", "ranges": [[{ "subnet": "$subnet" }]] } } ] }
JSON
cp /bin/busybox "$work/rootfs/bin/"; ln -s busybox "$work/rootfs/bin/sh"; ln -s busybox "$work/rootfs/bin/sleep"
echo 'root:x:0:0::/:/bin/sh' >"$work/rootfs/etc/passwd"
isulats import "$work/rootfs" local/ls:1 >/dev/null
echo "{\"metadata\":{\"name\":\"ls\",\"namespace\":\"default\",\"uid\":\"ls-$$\"},\"log_directory\":\"$work/logs\"}" >"$work/pod.json"
pod=$(isulats runp "$work/pod.json")
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timeit() { for _ in $(seq "$runs"); do s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N); echo $(((e - s) / 1000000)); done | median; }
ids=()
for i in $(seq "$n"); do
  echo "{\"metadata\":{\"name\":\"c$i\"},\"image\":{\"image\":\"local/ls:1\"},\"command\":[\"sleep\",\"3600\"],\"log_path\":\"c$i.log\"}" >"$work/c.json"
  ids+=("$(isulats create "$pod" "$work/c.json" "$work/pod.json")")
done
printf '%-34s %8s\n' "call ($n containers, $runs runs)" "median ms"
printf '%-34s %8s\n' "isulats version (floor)" "$(timeit isulats version)"
printf '%-34s %8s\n' "isulats ps -a (all created)" "$(timeit isulats ps -a)"
printf '%-34s %8s\n' "isulats pods" "$(timeit isulats pods)"
isulats start "${ids[@]}" >/dev/null
printf '%-34s %8s\n' "isulats ps -a (all running)" "$(timeit isulats ps -a)"
printf '%-34s %8s\n' "isulats ps -a -o json (running)" "$(timeit isulats ps -a -o json)"
