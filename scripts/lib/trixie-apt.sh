# Sourced by the scripts that take packages from Debian trixie which bookworm lacks (containerd
# 1.7, Go 1.24 and the Kubernetes Go libraries): apt with a sources list, lists dir and cache of
# its own, so the system's bookworm apt state is neither read nor changed, and nothing installed.
# Callers set `log` first. After trixie_apt_init DIR, "${TRIXIE_APT_OPTS[@]}" is ready for apt-get
# and apt-cache.

TRIXIE_MIRROR=${ISULATS_TRIXIE_MIRROR:-http://deb.debian.org/debian}
TRIXIE_APT_OPTS=()

# Runs "$@" up to three times, pausing longer each time; false when all failed.
trixie_retry() {
  local attempt
  for attempt in 1 2 3; do
    "$@" && return 0
    log "attempt $attempt of: $* failed"
    sleep $((attempt * 5))
  done
  return 1
}

# trixie_apt_init DIR: trixie's lists under DIR, read fresh.
trixie_apt_init() {
  local dir=$1
  mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
  # One-line format: Dir::Etc::SourceList names a file, and SourceParts=/dev/null keeps the
  # system's sources.list.d out.
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $TRIXIE_MIRROR trixie main" >"$dir/trixie.list"
  TRIXIE_APT_OPTS=(
    -o "Dir::Etc::SourceList=$dir/trixie.list"
    -o "Dir::Etc::SourceParts=/dev/null"
    -o "Dir::State::Lists=$dir/lists"
    -o "Dir::Cache=$dir/cache"
  )
  trixie_retry apt-get -q "${TRIXIE_APT_OPTS[@]}" update || { log "could not read trixie's package lists from $TRIXIE_MIRROR"; return 1; }
}

# trixie_download DEST_DIR PACKAGE...: the .debs into DEST_DIR.
trixie_download() {
  local dest=$1
  shift
  mkdir -p "$dest"
  # apt downloads as _apt where it can: let it write there.
  chown _apt "$dest" 2>/dev/null || true
  trixie_retry bash -c 'cd "$1" && shift && apt-get -q "$@"' _ "$dest" "${TRIXIE_APT_OPTS[@]}" download "$@" \
    || { log "could not download $* from $TRIXIE_MIRROR"; return 1; }
}
