# free_subnet A.B [A.B ...]: prints a A.B.x.0/24 that no IPv4 route of the host (any table)
# overlaps, trying the /16s in the order given, a random x first; fails when all are taken.
# Only picks a subnet for a bridge of our own: nothing is sent anywhere. Same idea as
# test/rig/free-subnet.ts, for the shell scripts (demo, benches).
free_subnet() {
  local pool start i x cand
  for pool in "$@"; do
    start=$((RANDOM % 254))
    for ((i = 0; i < 254; i++)); do
      x=$(((start + i) % 254 + 1))
      cand="$pool.$x.0/24"
      # root: routes inside the candidate; match: routes containing it (default routes say nothing).
      if [[ -z "$(ip -4 route show table all root "$cand")" ]] &&
        [[ -z "$(ip -4 route show table all match "$cand" | grep -v '^default\|^0\.0\.0\.0/0')" ]]; then
        printf '%s\n' "$cand"
        return 0
      fi
    done
  done
  return 1
}
