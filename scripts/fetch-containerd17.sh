#!/usr/bin/env bash
# Fetches Debian trixie's containerd (1.7, NRI-capable) for the NRI interop test and bench, beside
# the system's containerd 1.6, never over it: `apt-get download` through a sources list, lists dir
# and cache of its own, then `dpkg-deb -x` into $ISULATS_CONTAINERD17_DIR (default below).
# Idempotent: does nothing when a working copy is already there. Run as root (setup.sh calls it).
set -euo pipefail

DEST=${ISULATS_CONTAINERD17_DIR:-/var/cache/isulats/containerd-trixie}
APT_DIR=${DEST}.apt
MIRROR=${ISULATS_TRIXIE_MIRROR:-http://deb.debian.org/debian}

log() { printf '[fetch-containerd17] %s\n' "$*"; }

if [[ -x $DEST/usr/bin/containerd ]] && "$DEST/usr/bin/containerd" --version >/dev/null 2>&1; then
  log "present: $("$DEST/usr/bin/containerd" --version)"
  exit 0
fi

mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/download"
# apt downloads as _apt where it can: let it write there.
chown _apt "$APT_DIR/download" 2>/dev/null || true
# One-line format: Dir::Etc::SourceList names a file, and SourceParts=/dev/null keeps the
# system's sources.list.d out, so the system's apt state (bookworm) is neither read nor changed.
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR trixie main" >"$APT_DIR/trixie.list"
APT_OPTS=(
  -o "Dir::Etc::SourceList=$APT_DIR/trixie.list"
  -o "Dir::Etc::SourceParts=/dev/null"
  -o "Dir::State::Lists=$APT_DIR/lists"
  -o "Dir::Cache=$APT_DIR/cache"
)

ok=0
for attempt in 1 2 3; do
  if apt-get -q "${APT_OPTS[@]}" update && (cd "$APT_DIR/download" && rm -f ./*.deb && apt-get -q "${APT_OPTS[@]}" download containerd); then
    ok=1
    break
  fi
  log "attempt $attempt failed; retrying"
  sleep $((attempt * 5))
done
if ((!ok)); then
  log "could not download trixie's containerd from $MIRROR"
  exit 1
fi

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
