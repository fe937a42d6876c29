#!/usr/bin/env bash
# Fetches Debian trixie's containerd (1.7, NRI-capable) for the NRI interop test and bench, beside
# the system's containerd 1.6, never over it: `apt-get download` through a sources list, lists dir
# and cache of its own, then `dpkg-deb -x` into $ISULATS_CONTAINERD17_DIR (default below).
# Idempotent: does nothing when a working copy is already there. Run as root (setup.sh calls it).
set -euo pipefail

DEST=${ISULATS_CONTAINERD17_DIR:-/var/cache/isulats/containerd-trixie}
APT_DIR=${DEST}.apt

log() { printf '[fetch-containerd17] %s\n' "$*"; }
# shellcheck source=lib/trixie-apt.sh
source "$(dirname "$0")/lib/trixie-apt.sh"

if [[ -x $DEST/usr/bin/containerd ]] && "$DEST/usr/bin/containerd" --version >/dev/null 2>&1; then
  log "present: $("$DEST/usr/bin/containerd" --version)"
  exit 0
fi

trixie_apt_init "$APT_DIR"
rm -f "$APT_DIR"/download/*.deb
trixie_download "$APT_DIR/download" containerd

deb=$(ls "$APT_DIR"/download/containerd_*.deb)
rm -rf "$DEST.new"
dpkg-deb -x "$deb" "$DEST.new"
# Built against trixie's libraries: make sure both binaries the tests run also run on this system.
if ! version=$("$DEST.new/usr/bin/containerd" --version 2>&1) || ! shim=$("$DEST.new/usr/bin/containerd-shim-runc-v2" -v 2>&1); then
  log "the unpacked containerd does not run here: $version ${shim:-}"
  rm -rf "$DEST.new"
  exit 1
fi
rm -rf "$DEST"
mv "$DEST.new" "$DEST"
rm -f "$deb"
log "unpacked into $DEST: $version"
