#!/usr/bin/env bash
# Runs the whole vitest suite (unit + integration + e2e; extra args go to vitest) and closes with
# one plain line, "Tests: N passed, N failed", counted from vitest's JSON report.
set -uo pipefail
cd "$(dirname "$0")/.."

report=$(mktemp /tmp/ist-vitest-XXXXXX.json)
trap 'rm -f "$report"' EXIT

npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
rc=$?

passed=0
failed=0
if [[ -s $report ]] && counts=$(jq -r '"\(.numPassedTests) \(.numFailedTests)"' "$report" 2>/dev/null); then
  read -r passed failed <<<"$counts"
fi
if ((rc != 0 && failed == 0)); then
  # A file that failed to load, a hook or the rig failed: no test is marked failed, but the run is.
  echo "vitest exited with status $rc outside of any single test"
  failed=1
fi
if ((rc == 0 && failed > 0)); then rc=1; fi

echo "Tests: $passed passed, $failed failed"
exit "$rc"
