#!/usr/bin/env bash
# Prepares a fresh Debian 12 machine (run as root) to build and test isulats. Idempotent and
# non-interactive; needs no network but the Debian and npm registries.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive

# What the engine and the tests run on the host: criu (checkpoint's answer), curl (the
# :authority and TLS mirror checks), iproute2, util-linux (nsenter, unshare, ipcmk, script),
# prometheus (promtool and a server that scrape the daemon's metrics in a test), ...
PACKAGES=(
  runc crun conmon containernetworking-plugins iptables docker-registry containerd skopeo umoci
  busybox-static attr zstd jq hyperfine gcc g++ make python3 libc6-dev iproute2 util-linux
  procps openssl criu curl bsdutils tmux strace prometheus
  mmdebstrap qemu-system-x86 qemu-utils openssh-client
)

log() { printf '[setup] %s\n' "$*"; }

missing_packages() {
  local pkg
  for pkg in "${PACKAGES[@]}"; do
    if [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" != "install ok installed" ]]; then
      printf '%s\n' "$pkg"
    fi
  done
}

install_packages() {
  local missing
  mapfile -t missing < <(missing_packages)
  if ((${#missing[@]} == 0)); then
    log "Debian packages: all present"
    return
  fi
  log "Debian packages to install: ${missing[*]}"
  # Keep the packages' own services (containerd, docker-registry on :5000) from being started:
  # the test rig runs private instances and must not depend on or collide with system ones.
  local policy=/usr/sbin/policy-rc.d added_policy=0
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
    added_policy=1
  fi
  local attempt ok=0
  for attempt in 1 2 3; do
    if apt-get update -q && apt-get install -y -q --no-install-recommends "${missing[@]}"; then
      ok=1
      break
    fi
    log "apt attempt $attempt failed; retrying"
    sleep $((attempt * 5))
  done
  if ((added_policy)); then rm -f "$policy"; fi
  if ((!ok)); then
    log "could not install: ${missing[*]}"
    exit 1
  fi
}

install_node_modules() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    log "node and npm (Node.js >= 20) must be on PATH"
    exit 1
  fi
  # Skip a reinstall when package.json and the lock file are unchanged since the last one.
  local stamp=node_modules/.isulats-setup-stamp want
  want=$(cat package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)
  if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
    log "node_modules: up to date"
    return
  fi
  # `npm install` (which keeps the locked versions) rather than `npm ci`:
  # node-unix-socket names optional per-platform packages that were never
  # published (darwin, arm), so no lock file can list them and npm ci always
  # refuses. The stamp is taken before install, which may touch the lock file.
  npm install --no-audit --no-fund
  printf '%s\n' "$want" >"$stamp"
}

build() {
  if node -e 'process.exit(require("./package.json").scripts?.build ? 0 : 1)'; then
    log "building"
    npm run --silent build
  fi
}

install_packages
# The Go programs the tests run, built in the background (minutes of CPU) while the rest is
# fetched: our CRI client on the Kubernetes Go libraries and the NRI plugin (trixie's sources and
# Go 1.24 under /var/cache/isulats/go-trixie), then the upstream CRI validation suite (critest
# v1.34.0 and v1.26.1, from ../shared/cri-tools when present) and the dynamic busybox its images need,
# and crictl v1.34.0 from the same tarball (the benches and the guest's client).
(bash scripts/build-go-test-tools.sh && bash scripts/build-critest.sh) &
go_builds=$!
# The node-shaped Debian guest of test/guest/ (mmdebstrap: mostly downloads and unpacking; cached
# by recipe under /var/cache/isulats/guest, so a rerun is instant). ISULATS_GUEST=0 skips it.
guest_image=
if [[ ${ISULATS_GUEST:-1} != 0 ]]; then
  bash scripts/guest/build-image.sh >/dev/null &
  guest_image=$!
fi
# containerd 1.7 (trixie's), unpacked beside the system's 1.6, for the NRI interop test and bench.
bash scripts/fetch-containerd17.sh
install_node_modules
build
if ! wait "$go_builds"; then
  log "building the Go test programs failed"
  exit 1
fi
if [[ -n $guest_image ]] && ! wait "$guest_image"; then
  log "building the guest image failed (scripts/guest/build-image.sh)"
  exit 1
fi
log "done"
