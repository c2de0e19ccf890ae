#!/usr/bin/env bash
# Runs the end-to-end latency benchmark once on the small workspace (10
# project tools) so that it keeps working: it builds beeuni-lsp, spawns it over
# stdio and checks every answer. It fails when the benchmark breaks (a missing
# or wrong answer, a crash, a timeout), never on a slow number: budgets are
# not timed tests. Full runs: see docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp)
trap 'rm -f "$out"' EXIT
go run ./internal/lsp/bench/cmd/lspbench \
  -tools 10 -startups 1 -edits 60 -requests 10 -module-edits 2 -timeout 30s | tee "$out"
grep -q '^{"bench":"beeuni-lsp-e2e","tools":10,' "$out" || {
  echo "bench-smoke: no JSON result line" >&2
  exit 1
}
