#!/usr/bin/env bash
# Builds the node-shaped Debian 12 guest the guest suite (test/guest/) boots with qemu: systemd as
# PID 1, cgroup v2 only, /run a noexec tmpfs, AppArmor, runc, conmon, the CNI plugins, iptables and
# Debian's containerd 1.6 (SystemdCgroup = true) as the reference runtime, and CRIU. Everything comes from
# Debian's packages (mmdebstrap, the host's apt sources); nothing is fetched from elsewhere.
#
# Output, cached by the hash of this recipe (this file and the host's apt sources):
#   $ISULATS_GUEST_CACHE/<hash>/{root.raw,vmlinuz,initrd.img,id_ed25519,id_ed25519.pub}
# A rerun with an unchanged recipe only prints the directory. root.raw is an ext4 filesystem
# without a partition table (root=/dev/vda); runs boot it through a throwaway qcow2 overlay so the
# cached base stays clean. Prints the image directory on its last line.
set -euo pipefail

CACHE=${ISULATS_GUEST_CACHE:-/var/cache/isulats/guest}
SOURCES=${ISULATS_GUEST_APT_SOURCES:-/etc/apt/sources.list.d/debian.sources}
IMAGE_SIZE=${ISULATS_GUEST_IMAGE_SIZE:-6G}

# What a Kubernetes node of this shape carries. sudo and apparmor-utils are for critest's
# AppArmor specs; openssh-server is how the suite reaches the guest; criu is what runc checkpoints
# and restores with (the guest's stock kernel passes `criu check`, where sandboxes often do not).
PACKAGES=(
  linux-image-amd64 initramfs-tools systemd systemd-sysv dbus udev kmod apparmor apparmor-utils
  runc conmon containernetworking-plugins iptables containerd openssh-server iproute2 procps
  util-linux mount e2fsprogs ca-certificates sudo libstdc++6 less criu
)

log() { printf '[guest-image] %s\n' "$*" >&2; }

[[ -f $SOURCES ]] || { log "no apt sources at $SOURCES (set ISULATS_GUEST_APT_SOURCES)"; exit 1; }
for tool in mmdebstrap mke2fs ssh-keygen; do
  command -v "$tool" >/dev/null || { log "$tool is missing (scripts/setup.sh installs it)"; exit 1; }
done

hash=$(cat "$0" "$SOURCES" | sha256sum | cut -c1-16)
out=$CACHE/$hash
if [[ -f $out/root.raw && -f $out/vmlinuz && -f $out/initrd.img && -f $out/id_ed25519 ]]; then
  log "cached: $out"
  printf '%s\n' "$out"
  exit 0
fi

mkdir -p "$CACHE"
work=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
mkdir "$rootfs"

ssh-keygen -q -t ed25519 -N '' -C isulats-guest -f "$work/id_ed25519"

# Files the customize hook copies in.
mkdir -p "$work/files"
cat >"$work/files/fstab" <<'EOF'
/dev/vda / ext4 rw,errors=remount-ro 0 1
# As on real nodes: /run is a tmpfs mounted nosuid,nodev,noexec (systemd-remount-fs applies this).
tmpfs /run tmpfs rw,nosuid,nodev,noexec,mode=0755,size=20% 0 0
EOF
cat >"$work/files/10-dhcp.network" <<'EOF'
[Match]
Name=en* eth*

[Network]
DHCP=ipv4
EOF
# containerd 1.6 as the reference: the systemd cgroup driver, as kubeadm nodes configure it.
cat >"$work/files/containerd-config.toml" <<'EOF'
version = 2
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "registry.k8s.io/pause:3.9"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "/etc/cni/net.d"
  [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
    runtime_type = "io.containerd.runc.v2"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
      SystemdCgroup = true
EOF
# The node's pod network, as a network plugin would install it.
cat >"$work/files/10-bridge.conflist" <<'EOF'
{
  "cniVersion": "1.0.0",
  "name": "guest-pods",
  "plugins": [
    { "type": "bridge", "bridge": "cni0", "isGateway": true, "ipMasq": true,
      "ipam": { "type": "host-local", "ranges": [[{ "subnet": "10.88.0.0/16" }]],
                "routes": [{ "dst": "0.0.0.0/0" }] } },
    { "type": "portmap", "capabilities": { "portMappings": true } }
  ]
}
EOF
# kubelet's QoS slices (kubelet makes them on a real node; the guest has no kubelet).
cat >"$work/files/kubepods.slice" <<'EOF'
[Unit]
Description=kubelet-style pod slice
[Slice]
EOF
cat >"$work/files/kubepods-besteffort.slice" <<'EOF'
[Unit]
Description=kubelet-style besteffort slice
[Slice]
EOF

log "mmdebstrap bookworm (${#PACKAGES[@]} packages) into $rootfs"
include=$(IFS=,; printf '%s' "${PACKAGES[*]}")
mmdebstrap --mode=root --variant=apt --include="$include" \
  --customize-hook='echo isulats-guest >"$1/etc/hostname"' \
  --customize-hook="cp $work/files/fstab \"\$1/etc/fstab\"" \
  --customize-hook="mkdir -p \"\$1/etc/systemd/network\" && cp $work/files/10-dhcp.network \"\$1/etc/systemd/network/\"" \
  --customize-hook='chroot "$1" systemctl enable systemd-networkd ssh' \
  --customize-hook='chroot "$1" systemctl disable containerd apt-daily.timer apt-daily-upgrade.timer e2scrub_all.timer fstrim.timer man-db.timer 2>/dev/null || true' \
  --customize-hook="mkdir -p \"\$1/etc/containerd\" && cp $work/files/containerd-config.toml \"\$1/etc/containerd/config.toml\"" \
  --customize-hook="mkdir -p \"\$1/etc/cni/net.d\" && cp $work/files/10-bridge.conflist \"\$1/etc/cni/net.d/\"" \
  --customize-hook="cp $work/files/kubepods.slice $work/files/kubepods-besteffort.slice \"\$1/etc/systemd/system/\"" \
  --customize-hook="mkdir -p -m 700 \"\$1/root/.ssh\" && cp $work/id_ed25519.pub \"\$1/root/.ssh/authorized_keys\"" \
  --customize-hook='sed -i "s/^#\?PermitRootLogin.*/PermitRootLogin prohibit-password/; s/^#\?UseDNS.*/UseDNS no/" "$1/etc/ssh/sshd_config"' \
  --customize-hook='mkdir -p "$1/etc/systemd/journald.conf.d" && printf "[Journal]\nStorage=persistent\n" >"$1/etc/systemd/journald.conf.d/isulats.conf"' \
  --customize-hook='mkdir -p "$1/mnt/host"' \
  bookworm "$rootfs" "$SOURCES" >&2

kernel=$(ls "$rootfs"/boot/vmlinuz-* | sort -V | tail -1)
cp "$kernel" "$work/vmlinuz"
cp "$rootfs/boot/initrd.img-${kernel##*/vmlinuz-}" "$work/initrd.img"
log "making the ext4 image ($IMAGE_SIZE, sparse)"
mke2fs -q -t ext4 -L guestroot -d "$rootfs" "$work/root.raw" "$IMAGE_SIZE"
rm -rf "$rootfs"

rm -rf "$out"
mkdir "$out"
mv "$work/root.raw" "$work/vmlinuz" "$work/initrd.img" "$work/id_ed25519" "$work/id_ed25519.pub" "$out/"
# Older recipes' images are dead weight (several hundred MB each).
find "$CACHE" -mindepth 1 -maxdepth 1 -type d ! -name "$hash" ! -name 'build.*' -exec rm -rf {} +
log "built: $out"
printf '%s\n' "$out"
