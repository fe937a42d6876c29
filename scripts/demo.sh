#!/usr/bin/env bash
# The main job: a tour of the embedded engine, offline. It builds a busybox
# image from busybox-static, runs a pod and a container through runc, conmon
# and the CNI bridge, execs into it, shows logs and stats, and cleans up.
# Everything lives under a temporary root, state dir and CNI config, so the
# host's /var/lib/isulats and /etc/cni/net.d are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d /tmp/isulats-demo-XXXXXX)
root="$work/root" state="$work/state"
export ISULATS_CNI_CONF_DIR="$work/cni"
isulats() { node bin/isulats --root "$root" --state "$state" "$@"; }
step() { printf '\n\033[1m$ isulats %s\033[0m\n' "$*"; isulats "$@"; }

pod="" ctr=""
cleanup() {
  set +e
  [ -n "$ctr" ] && isulats rm -f "$ctr" >/dev/null 2>&1
  [ -n "$pod" ] && { isulats stopp "$pod" >/dev/null 2>&1; isulats rmp -f "$pod" >/dev/null 2>&1; }
  # Whatever a failed step left mounted under the temporary dirs.
  grep -o " $work[^ ]*" /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m" 2>/dev/null; done
  ip link del isl-demo0 2>/dev/null
  rm -rf "$work" /var/lib/cni/networks/isulats-demo
}
trap cleanup EXIT

# A bridge network of our own (unique name, bridge and a subnet no host route overlaps).
. scripts/lib/free-subnet.sh
subnet=$(free_subnet 10.233 10.188 10.213 172.29 172.30) || { echo "no free /24 for the demo network" >&2; exit 1; }
echo "demo network: $subnet"
mkdir -p "$ISULATS_CNI_CONF_DIR"
cat >"$ISULATS_CNI_CONF_DIR/10-isulats-demo.conflist" <<JSON
{ "cniVersion": "1.0.0", "name": "isulats-demo", "plugins": [
  { "type": "bridge", "bridge": "isl-demo0", "isGateway": true, "ipMasq": false,
    "ipam": { "type": "host-local", "ranges": [[{ "subnet": "$subnet" }]], "routes": [{ "dst": "0.0.0.0/0" }] } },
  { "type": "portmap", "capabilities": { "portMappings": true } } ] }
JSON

# A busybox rootfs from Debian's busybox-static.
rootfs="$work/rootfs"
mkdir -p "$rootfs/bin" "$rootfs/etc" "$rootfs/tmp" "$rootfs/www"
cp /bin/busybox "$rootfs/bin/busybox"
for a in sh ls cat echo sleep top ps env id hostname httpd wget ip head tail true false date; do ln -s busybox "$rootfs/bin/$a"; done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' >"$rootfs/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$rootfs/etc/group"
echo 'hello from a pod run by isulats' >"$rootfs/www/index.html"

cat >"$work/pod.json" <<JSON
{ "metadata": { "name": "demo", "namespace": "default", "uid": "demo-$(date +%s)", "attempt": 0 },
  "hostname": "demo", "log_directory": "$work/logs", "linux": {} }
JSON
cat >"$work/container.json" <<'JSON'
{ "metadata": { "name": "web" }, "image": { "image": "local/busybox:demo" },
  "command": ["sh", "-c", "echo web server starting; httpd -f -p 8080 -h /www & i=0; while true; do echo tick $i; i=$((i+1)); sleep 1; done"],
  "log_path": "web/0.log", "linux": {} }
JSON

step import --cmd sh "$rootfs" local/busybox:demo
step images
pod=$(isulats runp "$work/pod.json"); echo "pod: $pod"
step pods
ctr=$(isulats create "$pod" "$work/container.json" "$work/pod.json"); echo "container: $ctr"
step start "$ctr"
step ps
sleep 2
step exec -s "$ctr" sh -c 'echo "inside: $(hostname) $(id -u)"; ip -4 addr show eth0 | grep inet'
ip=$(isulats inspectp -o go-template --template '{{.status.network.ip}}' "$pod")
echo; echo "pod IP: $ip; from the host:"; wget -qO- "http://$ip:8080/" || true
step logs --tail 4 "$ctr"
step stats
step stop "$ctr"
step rm "$ctr"; ctr=""
step stopp "$pod"
step rmp "$pod"; pod=""
step pods
echo; echo "demo done: every pod, container, mount and network namespace it made is gone."
