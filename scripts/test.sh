#!/usr/bin/env bash
# Runs every test of the project: Go (race detector on), the workflows'
# lint, the release snapshot and its packaging test, a short run of each
# fuzz target, the latency benchmark on the small workspace, and the editor
# clients in real editors. Installs what the tests need first (Debian
# packages, Bun and npm modules; needs root for apt-get, as CI has).
#
# Two stages run beside others, so that a fresh machine's CI stays short:
# the editor tools install (mostly downloads) while go vet and the Go tests
# run, and the release snapshot builds (compiling) while the fuzz targets
# run (each for a fixed time, on one core). A background stage's output is
# printed when it is waited for; its failure fails the run there.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage is timed; the times are printed at the end, also after a failure.
stage='' stage_start=0 times=()
end_stage() {
  [[ -n $stage ]] || return 0
  times+=("$(printf '%6d s  %s' $((SECONDS - stage_start)) "$stage")")
  stage=
}
step() {
  end_stage
  stage=$* stage_start=$SECONDS
  printf '\n=== %s\n' "$*"
}

# Background stages: bg_start NAME COMMAND... runs COMMAND in a session of
# its own, its output into a log; bg_wait NAME waits for it, prints the log
# and its time, and fails when it failed. Whatever still runs when this
# script exits (a foreground stage failed) is stopped.
logs=$(mktemp -d)
declare -A bg_pid=() bg_began=()
bg_start() {
  local name=$1
  shift
  printf '\n=== %s (started in the background)\n' "$name"
  setsid "$@" >"$logs/$name.log" 2>&1 </dev/null &
  bg_pid[$name]=$!
  bg_began[$name]=$SECONDS
}
bg_wait() {
  local name=$1 rc=0
  end_stage
  wait "${bg_pid[$name]}" || rc=$?
  unset "bg_pid[$name]"
  printf '\n=== %s (background, output follows)\n' "$name"
  cat "$logs/$name.log"
  times+=("$(printf '%6d s  %s (in the background)' $((SECONDS - bg_began[$name])) "$name")")
  if ((rc != 0)); then
    echo "test: $name failed (exit $rc)" >&2
    return "$rc"
  fi
}
finish() {
  local pid
  for pid in "${bg_pid[@]}"; do kill -- "-$pid" 2>/dev/null || true; done
  rm -rf "$logs"
  end_stage
  printf "\n=== stage times (total %d s)\n" "$SECONDS"
  printf "%s\n" "${times[@]}"
}
trap finish EXIT

step "install what the Go tests need"
# strace: the test that proves the server opens no network connection,
# starts no process and writes nothing outside the project traces it.
# curl, unzip: the GitHub Action's install step, tested offline.
need=()
for tool in strace curl unzip; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if ((${#need[@]})); then
  apt-get update -qq && apt-get install -y -qq "${need[@]}"
fi
# internal/tsinspect/bun_test.go loads every test module in Bun and compares
# its verdict with the inspector's; it fails in CI when BEEUNI_BUN is unset.
BEEUNI_BUN=$(bash scripts/install-bun.sh)
export BEEUNI_BUN
end_stage

# The editors, Chromium, code-server, yaml-language-server and the
# extension's node_modules (the release snapshot packages .vsix files with
# them): needed from the release stage on. apt-get above is done, so the two
# never wait for each other's lock.
bg_start "install the editor tests' tools" bash scripts/install-editor-deps.sh

step "gofmt and go vet"
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...

step "GitHub workflows (actionlint)"
bash scripts/lint-workflows.sh

step "go test -race"
go test -race -count=1 ./...

# The large one-goroutine differential tests of internal/analysis skip
# themselves under -race (nothing for it to find, 10 to 15 times slower):
# they run here.
step "go test ./internal/analysis (its one-goroutine tests, without -race)"
go test -count=1 ./internal/analysis

bg_wait "install the editor tests' tools"

bg_start "release snapshot, built twice, and the packaging test" bash scripts/test-release.sh

# 3 s and one fuzzing process per target, leaving the other core to the
# release build (scripts/fuzz-smoke.sh alone: 5 s on every core).
step "fuzz targets, briefly"
FUZZTIME=3s FUZZWORKERS=1 bash scripts/fuzz-smoke.sh

bg_wait "release snapshot, built twice, and the packaging test"

step "latency benchmark on the small workspace"
bash scripts/bench-smoke.sh

step "editor clients"
bash scripts/test-editors.sh
end_stage

echo
echo "all tests passed"
