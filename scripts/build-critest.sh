#!/usr/bin/env bash
# Prepares the upstream CRI validation suite (critest of cri-tools) against `isulats daemon`
# (test/integration/critest-upstream.test.ts runs each release built here):
# - critest v1.34.0 (the conformance gate) and v1.26.1, each built from its source tarball with
#   vendored modules in ../shared/cri-tools (beside the repo) with trixie's Go 1.24 that
#   scripts/build-go-test-tools.sh unpacks (run that first), into
#   $ISULATS_CRITEST_DIR/critest-<sha256 of the tarball, 16 hex digits>: a rerun with the same
#   tarball skips the 3-5 minute build; the two build one after the other (each takes both cores);
# - Debian's dynamic busybox, for the images the suite pulls (test/rig/critest-images.ts): its
#   shell looks commands up in PATH, where busybox-static runs its applets in-process. Unpacked
#   under $ISULATS_CRITEST_BUSYBOX_DIR, not installed (the package conflicts with busybox-static).
# - crictl v1.34.0 from the same tarball, into $ISULATS_CRITEST_DIR/crictl-<same hash>: the
#   reference client of the CLI start-up bench (bench/cli/run.mjs), not needed by any test.
# A release whose tarball is missing is skipped (so is its test), with a line saying so.
set -euo pipefail
cd "$(dirname "$0")/.."

SOURCES=${ISULATS_CRITEST_SOURCES:-../shared/cri-tools}
CACHE=${ISULATS_CRITEST_DIR:-/var/cache/isulats/critest}
GO_TRIXIE=${ISULATS_GO_TRIXIE_DIR:-/var/cache/isulats/go-trixie}
GOROOT=$GO_TRIXIE/root/usr/lib/go-1.24
BUSYBOX_DIR=${ISULATS_CRITEST_BUSYBOX_DIR:-/var/cache/isulats/busybox-dynamic}
# Release and the module path its version flag (-X <module>/pkg/version.Version) names; the
# tarball is $SOURCES/cri-tools-<release>-critest.tar.gz (test/rig/critest.ts lists the same).
RELEASES=(
  "1.34.0 sigs.k8s.io/cri-tools"
  "1.26.1 github.com/kubernetes-sigs/cri-tools"
)

log() { printf '[build-critest] %s\n' "$*"; }

tarball() { printf '%s/cri-tools-%s-critest.tar.gz' "$SOURCES" "$1"; }

present=0
for release in "${RELEASES[@]}"; do
  [[ -f $(tarball "${release%% *}") ]] && present=1
done
if ((present == 0)); then
  log "skipped: no cri-tools tarballs in $SOURCES (the upstream critest tests will be skipped)"
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

work=
trap 'rm -rf "${work:-}"' EXIT

# Builds TOOL (critest or crictl) of one release into the cache (unless there); its path in $binary.
# critest is a ginkgo test binary (`go test -c` of cmd/critest), crictl a plain `go build` of
# cmd/crictl; both from the vendored modules, no network, sharing one Go build cache.
build_tool() {
  local tool=$1 version=$2 module=$3 tarball out src start
  tarball=$(tarball "$version")
  # test/rig/critest.ts and bench/crictl-binary.ts compute the same names to find the binaries.
  out="$CACHE/$tool-$(sha256sum "$tarball" | cut -c1-16)"
  if [[ -x $out ]]; then
    log "up to date: $tool v$version $out"
    binary=$out
    return 0
  fi
  if [[ ! -x $GOROOT/bin/go ]]; then
    log "no Go toolchain at $GOROOT: run scripts/build-go-test-tools.sh first"
    return 1
  fi
  local go_cmd=(go build)
  [[ $tool == critest ]] && go_cmd=(go test -c)
  mkdir -p "$CACHE/gocache"
  work=$(mktemp -d "$CACHE/src.XXXXXX")
  start=$SECONDS
  tar -xzf "$tarball" -C "$work"
  src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)
  if ! (cd "$src" && env -i PATH="$GOROOT/bin:/usr/bin:/bin" HOME="$CACHE" GOROOT="$GOROOT" \
    GOCACHE="$CACHE/gocache" GOPATH="$CACHE/gopath" GOFLAGS=-mod=vendor GOPROXY=off \
    GOTOOLCHAIN=local CGO_ENABLED=0 GOTELEMETRY=off \
    "${go_cmd[@]}" -trimpath -o "$work/$tool" \
      -ldflags "-X $module/pkg/version.Version=$version" "./cmd/$tool"); then
    return 1
  fi
  mv "$work/$tool" "$out"
  rm -rf "$work"
  work=
  log "built $tool v$version $out in $((SECONDS - start)) s"
  binary=$out
}

if [[ ${1:-} == --crictl-only ]]; then
  build_tool crictl ${RELEASES[0]}
  exit
fi

built=()
for release in "${RELEASES[@]}"; do
  version=${release%% *}
  if [[ ! -f $(tarball "$version") ]]; then
    log "skipped v$version: no $(tarball "$version") (its upstream critest test will be skipped)"
    continue
  fi
  build_tool critest "$version" "${release#* }"
  built+=("$binary")
done
# Builds from other tarballs are of no further use.
for old in "$CACHE"/critest-*; do
  [[ -e $old ]] || continue
  keep=0
  for b in "${built[@]}"; do [[ $old == "$b" ]] && keep=1; done
  ((keep)) || rm -f "$old"
done
if [[ -f $(tarball "${RELEASES[0]%% *}") ]]; then
  build_tool crictl ${RELEASES[0]} || log "crictl did not build (the benches and the guest suite use it; the guest falls back to the CLI)"
fi
