#!/usr/bin/env bash
# Prepares test/integration/critest-upstream.test.ts, the upstream CRI validation suite (critest of
# cri-tools v1.26.1) against `isulats daemon`:
# - critest, built from the source tarball with vendored modules in ../shared/cri-tools (beside
#   the repo) with trixie's Go 1.24 that scripts/build-go-test-tools.sh unpacks (run that first),
#   into $ISULATS_CRITEST_DIR/critest-<sha256 of the tarball, 16 hex digits>: a rerun with the
#   same tarball skips the 3-5 minute build;
# - Debian's dynamic busybox, for the images the suite pulls (test/rig/critest-images.ts): its
#   shell looks commands up in PATH, where busybox-static runs its applets in-process. Unpacked
#   under $ISULATS_CRITEST_BUSYBOX_DIR, not installed (the package conflicts with busybox-static).
# Without ../shared/cri-tools this says so and does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

TARBALL=${ISULATS_CRITEST_TARBALL:-../shared/cri-tools/cri-tools-1.26.1-critest.tar.gz}
CACHE=${ISULATS_CRITEST_DIR:-/var/cache/isulats/critest}
GO_TRIXIE=${ISULATS_GO_TRIXIE_DIR:-/var/cache/isulats/go-trixie}
GOROOT=$GO_TRIXIE/root/usr/lib/go-1.24
VERSION=1.26.1
BUSYBOX_DIR=${ISULATS_CRITEST_BUSYBOX_DIR:-/var/cache/isulats/busybox-dynamic}

log() { printf '[build-critest] %s\n' "$*"; }

if [[ ! -f $TARBALL ]]; then
  log "skipped: no $TARBALL (the upstream critest test will be skipped)"
  exit 0
fi

fetch_busybox() {
  [[ -x $BUSYBOX_DIR/bin/busybox ]] && return 0
  local tmp
  tmp=$(mktemp -d)
  # `apt-get download` as root into a dir of our own; the lists may need a refresh first.
  if ! (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root busybox); then
    apt-get update -q && (cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root busybox)
  fi
  rm -rf "$BUSYBOX_DIR.new"
  dpkg-deb -x "$tmp"/busybox_*.deb "$BUSYBOX_DIR.new"
  rm -rf "$tmp" "$BUSYBOX_DIR"
  mv "$BUSYBOX_DIR.new" "$BUSYBOX_DIR"
  log "unpacked Debian's dynamic busybox into $BUSYBOX_DIR"
}
fetch_busybox

# test/rig/critest.ts computes the same name to find the binary.
out="$CACHE/critest-$(sha256sum "$TARBALL" | cut -c1-16)"
if [[ -x $out ]]; then
  log "up to date: $out"
  exit 0
fi
if [[ ! -x $GOROOT/bin/go ]]; then
  log "no Go toolchain at $GOROOT: run scripts/build-go-test-tools.sh first"
  exit 1
fi

mkdir -p "$CACHE/gocache"
work=$(mktemp -d "$CACHE/src.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS
tar -xzf "$TARBALL" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
# critest is a ginkgo test binary: `go test -c` of cmd/critest. Vendored modules, no network.
(cd "$src" && env -i PATH="$GOROOT/bin:/usr/bin:/bin" HOME="$CACHE" GOROOT="$GOROOT" \
  GOCACHE="$CACHE/gocache" GOPATH="$CACHE/gopath" GOFLAGS=-mod=vendor GOPROXY=off \
  GOTOOLCHAIN=local CGO_ENABLED=0 GOTELEMETRY=off \
  go test -c -trimpath -o "$work/critest" \
    -ldflags "-X github.com/kubernetes-sigs/cri-tools/pkg/version.Version=$VERSION" ./cmd/critest)
mv "$work/critest" "$out"
# Builds from other tarballs are of no further use.
find "$CACHE" -maxdepth 1 -name 'critest-*' ! -name "${out##*/}" -delete
log "built $out in $((SECONDS - start)) s"
