#!/usr/bin/env bash
# Runs every test of the project: Go (race detector on), the workflows'
# lint, the release snapshot and its packaging test, a short run of each
# fuzz target, the latency benchmark on the small workspace, and the editor
# clients in real editors. Installs what the editor tests need first (Debian
# packages and npm modules; needs root for apt-get, as CI has).
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
trap 'end_stage; printf "\n=== stage times (total %d s)\n" "$SECONDS"; printf "%s\n" "${times[@]}"' EXIT

step "install test dependencies"
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
bash scripts/install-editor-deps.sh

step "install Bun (the runtime module inspection is held to)"
# internal/tsinspect/bun_test.go loads every test module in Bun and compares
# its verdict with the inspector's; it fails in CI when BEEUNI_BUN is unset.
BEEUNI_BUN=$(bash scripts/install-bun.sh)
export BEEUNI_BUN

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

step "release snapshot, built twice, and the packaging test"
bash scripts/test-release.sh

step "fuzz targets, briefly"
bash scripts/fuzz-smoke.sh

step "latency benchmark on the small workspace"
bash scripts/bench-smoke.sh

step "editor clients"
bash scripts/test-editors.sh

echo
echo "all tests passed"
