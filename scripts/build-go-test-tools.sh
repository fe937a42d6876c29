#!/usr/bin/env bash
# Builds the Go programs the tests run against real upstream libraries:
# - test/go-cri-client: our CRI client on the Kubernetes Go libraries (k8s.io/cri-api, client-go's
#   remotecommand and portforward, grpc-go), for test/integration/daemon-go-client.test.ts;
# - examples/nri/go-reference-plugin: an NRI plugin on upstream's stub (github.com/containerd/nri
#   pkg/stub), for test/integration/nri-go-plugin.test.ts.
# Debian trixie packages those libraries as golang-*-dev sources and Go 1.24; bookworm does not.
# So: `apt-get download` through a sources list, lists dir and cache of our own (the system's
# bookworm apt state is neither read nor changed), `dpkg-deb -x` of the dependency closure into
# one tree under $ISULATS_GO_TRIXIE_DIR, nothing installed, then a GOPATH-mode build (no module
# proxy: the sources are the packaged ones) into bin/<name>-<hash of its main.go>.
# Idempotent: builds only what has no binary for its current main.go. Run as root (setup.sh calls it).
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE=${ISULATS_GO_TRIXIE_DIR:-/var/cache/isulats/go-trixie}
# name=source dir; test/rig/go-tools.ts finds the binaries by the same names.
TOOLS=(go-cri-client=test/go-cri-client go-nri-plugin=examples/nri/go-reference-plugin)
# What the programs import, plus the toolchain; the rest is their dependency closure.
PACKAGES=(
  golang-1.24-go golang-github-kubernetes-cri-api-dev golang-k8s-client-go-dev
  golang-k8s-apimachinery-dev golang-google-grpc-dev golang-github-containerd-nri-dev
)
GO_VERSION=1.24

log() { printf '[build-go-test-tools] %s\n' "$*"; }
# shellcheck source=lib/trixie-apt.sh
source scripts/lib/trixie-apt.sh

# The tests compute the same names (sha256 of main.go, 16 hex digits) to find current binaries.
binary() { echo "$CACHE/bin/$1-$(sha256sum "$2/main.go" | cut -c1-16)"; }
missing=()
for tool in "${TOOLS[@]}"; do
  [[ -x $(binary "${tool%%=*}" "${tool#*=}") ]] || missing+=("$tool")
done
if ((${#missing[@]} == 0)); then
  log "up to date"
  exit 0
fi

APT_DIR=$CACHE/apt
ROOT=$CACHE/root
fetch_and_unpack() {
  trixie_apt_init "$APT_DIR"

  # Only Go sources and the toolchain: the closure also names libc and friends, which the
  # build (CGO_ENABLED=0) never uses and bookworm has anyway. Virtual names (<...>) are
  # listed with their providers, so dropping them loses nothing.
  local closure
  mapfile -t closure < <(apt-cache "${TRIXIE_APT_OPTS[@]}" depends --recurse --no-recommends --no-suggests \
    --no-conflicts --no-breaks --no-replaces --no-enhances "${PACKAGES[@]}" | grep -E '^golang-' | sort -u)
  log "${#closure[@]} packages in the closure"
  printf '%s\n' "${closure[@]}" >"$APT_DIR/closure.txt"

  # Download what is not here yet (file names are <package>_<version>_<arch>.deb).
  local pkg need=()
  for pkg in "${closure[@]}"; do
    compgen -G "$APT_DIR/debs/${pkg}_*.deb" >/dev/null || need+=("$pkg")
  done
  if ((${#need[@]})); then
    log "downloading ${#need[@]} packages"
    trixie_download "$APT_DIR/debs" "${need[@]}"
  fi

  rm -rf "$ROOT.new"
  mkdir -p "$ROOT.new"
  for pkg in "${closure[@]}"; do
    dpkg-deb -x "$(compgen -G "$APT_DIR/debs/${pkg}_*.deb" | sort | tail -1)" "$ROOT.new"
  done
  # The links these packages ship are relative; an absolute one would point at the (absent)
  # system copy, so retarget any into our tree.
  local link target
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    [[ $target == /* ]] && ln -sfn "$ROOT${target}" "$link"
  done < <(find "$ROOT.new" -type l -print0)
  # Links were written against the final path: only now move the tree there.
  rm -rf "$ROOT"
  mv "$ROOT.new" "$ROOT"
  # The tree is complete: the .debs are no longer needed (a later refetch downloads afresh).
  rm -rf "$APT_DIR/debs"
  printf '%s\n' "${PACKAGES[*]}" "${closure[@]}" >"$ROOT/.packages"
}

# Refetch when the tree is missing or was made for another package list.
if [[ "$(head -1 "$ROOT/.packages" 2>/dev/null)" != "${PACKAGES[*]}" ]]; then
  start=$SECONDS
  fetch_and_unpack
  log "fetched and unpacked in $((SECONDS - start)) s"
fi

GOROOT=$ROOT/usr/lib/go-$GO_VERSION
if ! version=$("$GOROOT/bin/go" version 2>&1); then
  log "trixie's Go toolchain does not run here: $version"
  exit 1
fi
log "toolchain: $version"

mkdir -p "$CACHE/bin" "$CACHE/gocache"
tmp=""
trap 'rm -f "$tmp"' EXIT
for tool in "${missing[@]}"; do
  name=${tool%%=*} src=${tool#*=}
  out=$(binary "$name" "$src")
  start=$SECONDS
  tmp="$out.tmp.$$"
  # GOPATH mode over Debian's source tree: no go.mod, no network, no toolchain switching.
  env -i PATH="$GOROOT/bin:/usr/bin:/bin" HOME="$CACHE" \
    GOROOT="$GOROOT" GOPATH="$ROOT/usr/share/gocode" GOCACHE="$CACHE/gocache" \
    GO111MODULE=off GOPROXY=off GOTOOLCHAIN=local CGO_ENABLED=0 GOTELEMETRY=off \
    go build -trimpath -o "$tmp" "./$src"
  mv "$tmp" "$out"
  # Builds of other revisions of this main.go: kept a day, since parallel worktrees may each
  # build and use their own revision at once.
  find "$CACHE/bin" -name "$name-*" ! -name "${out##*/}" -mmin +1440 -delete
  log "built $out in $((SECONDS - start)) s"
done
