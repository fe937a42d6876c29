#!/usr/bin/env bash
# Runs the whole vitest suite (unit + integration + e2e) with containerd 1.6 as the CLI's remote
# peer, then the CLI's remote-mode suite again, unchanged, against `isulats daemon` as the peer
# (ISULATS_TEST_PEER=isulats), then the node-shaped guest suite (test/guest/, a qemu guest).
# Closes with one plain line, "Tests: N passed, N failed", summed
# from vitest's JSON reports. Extra args go to one vitest run instead (set ISULATS_TEST_PEER
# yourself to pick the peer).
set -uo pipefail
cd "$(dirname "$0")/.."

# The foundation's remote-mode CLI suite: every verb through a CRI socket.
CLI_SUITE=(test/integration/cli-pods.test.ts test/integration/cli-containers.test.ts
  test/integration/cli-images.test.ts test/integration/cli-system.test.ts test/integration/cli-operator.test.ts)

reports=()
trap 'rm -f "${reports[@]}"' EXIT
passed=0
failed=0
rc=0

# One vitest run; adds its counts to the totals.
run_vitest() {
  local report
  report=$(mktemp /tmp/ist-vitest-XXXXXX.json)
  reports+=("$report")
  npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
  local status=$? p=0 f=0
  if [[ -s $report ]] && counts=$(jq -r '"\(.numPassedTests) \(.numFailedTests)"' "$report" 2>/dev/null); then
    read -r p f <<<"$counts"
  fi
  if ((status != 0 && f == 0)); then
    # A file that failed to load, a hook or the rig failed: no test is marked failed, but the run is.
    echo "vitest exited with status $status outside of any single test"
    f=1
  fi
  passed=$((passed + p))
  failed=$((failed + f))
  if ((status != 0 || f > 0)); then rc=1; fi
}

if (($# > 0)); then
  run_vitest "$@"
else
  run_vitest
  echo "== the CLI suite again, against isulats daemon as the remote peer =="
  ISULATS_TEST_PEER=isulats run_vitest --project integration "${CLI_SUITE[@]}"
  # The node-shaped Debian guest under qemu (test/guest/, docs/testing.md); ISULATS_GUEST=0 skips it.
  if [[ ${ISULATS_GUEST:-1} != 0 ]]; then
    echo "== the node-shaped guest suite (qemu) =="
    run_vitest --config vitest.guest.config.ts
  fi
fi

echo "Tests: $passed passed, $failed failed"
exit "$rc"
