#!/usr/bin/env bash
# Builds upstream crictl v1.34.0 (cmd/crictl of the cri-tools tarball build-critest.sh uses) for the
# benches that drive a runtime as a user does (bench/daemon/crictl-bench.ts, the CLI start-up
# bench): one `go build`, vendored modules, no network, into
# $ISULATS_CRITEST_DIR/crictl-<sha256 of the tarball, 16 hex digits> (bench/crictl-binary.ts finds
# it by that name). Cheap after build-critest.sh: the same GOCACHE holds the packages critest
# compiled. Needs trixie's Go (scripts/build-go-test-tools.sh). No tarball: a line, exit 0 (the
# benches then look for crictl on PATH). No test needs it.
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCES=${ISULATS_CRITEST_SOURCES:-../shared/cri-tools}
CACHE=${ISULATS_CRITEST_DIR:-/var/cache/isulats/critest}
GO_TRIXIE=${ISULATS_GO_TRIXIE_DIR:-/var/cache/isulats/go-trixie}
GOROOT=$GO_TRIXIE/root/usr/lib/go-1.24
VERSION=1.34.0
MODULE=sigs.k8s.io/cri-tools

log() { printf '[build-crictl] %s\n' "$*"; }

tarball=$SOURCES/cri-tools-$VERSION-critest.tar.gz
if [[ ! -f $tarball ]]; then
  log "skipped: no $tarball"
  exit 0
fi
out="$CACHE/crictl-$(sha256sum "$tarball" | cut -c1-16)"
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
tar -xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
(cd "$src" && env -i PATH="$GOROOT/bin:/usr/bin:/bin" HOME="$CACHE" GOROOT="$GOROOT" \
  GOCACHE="$CACHE/gocache" GOPATH="$CACHE/gopath" GOFLAGS=-mod=vendor GOPROXY=off \
  GOTOOLCHAIN=local CGO_ENABLED=0 GOTELEMETRY=off \
  go build -trimpath -o "$work/crictl" -ldflags "-X $MODULE/pkg/version.Version=$VERSION" ./cmd/crictl)
mv "$work/crictl" "$out"
log "built $out in $((SECONDS - start)) s"
