#!/usr/bin/env bash
# Runs every Go fuzz target of the repository briefly. Each package's test
# binary is built once, with fuzzing's coverage instrumentation
# (go test -c -fuzz=.), and run once per target (-test.fuzz allows one
# target at a time) from the package's folder, with go test's fuzz cache.
# The committed seed corpora (testdata/fuzz/<FuzzName>/) also run in every
# plain `go test`; this adds a few seconds of new inputs per target.
#
#   FUZZTIME=5s bash scripts/fuzz-smoke.sh        # time per target (default 5s)
#   FUZZWORKERS=1 bash scripts/fuzz-smoke.sh      # fuzzing processes per target (default: one per core)
#   bash scripts/fuzz-smoke.sh ./internal/diag    # only these package folders
#
# A crasher is written to the package's testdata/fuzz/<FuzzName>/; commit it
# with the fix so that it stays a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

fuzztime="${FUZZTIME:-5s}"
workers=()
[[ -z ${FUZZWORKERS:-} ]] || workers=(-test.parallel="$FUZZWORKERS")
if [ "$#" -gt 0 ]; then
  dirs=("$@")
else
  mapfile -t dirs < <(git ls-files --cached --others --exclude-standard '*_test.go' |
    xargs grep -l '^func Fuzz[A-Za-z0-9_]*(f \*testing.F)' | xargs -n1 dirname | sort -u | sed 's|^|./|')
fi
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cache=$(go env GOCACHE)/fuzz

# corpus_size DIR: how many files a target's committed corpus holds (0
# when it has none), to tell whether a run wrote a crasher.
corpus_size() {
  local files=()
  [[ ! -d $1 ]] || mapfile -t files < <(find "$1" -type f)
  echo "${#files[@]}"
}

failed=0
count=0
for dir in "${dirs[@]}"; do
  # Target names in that folder, from the source, not from `-test.list`
  # (which would need the binary first).
  mapfile -t targets < <(grep -ho '^func Fuzz[A-Za-z0-9_]*(f \*testing.F)' "$dir"/*_test.go |
    sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u)
  pkg=$(go list "$dir")
  test=$bin/$(echo "$pkg" | tr / _).test
  start=$SECONDS
  if ! go test -c -fuzz=. -o "$test" "$dir"; then
    echo "FAIL: $dir does not build"
    failed=1
    continue
  fi
  printf -- '--- %s: test binary built in %d s\n' "$dir" $((SECONDS - start))
  for target in "${targets[@]}"; do
    count=$((count + 1))
    for attempt in 1 2 3; do
      printf -- '--- %s %s (%s)\n' "$dir" "$target" "$fuzztime"
      crashers=$(corpus_size "$repo/$dir/testdata/fuzz/$target")
      if (cd "$repo/$dir" && "$test" -test.run='^$' -test.fuzz="^${target}\$" \
        -test.fuzztime="$fuzztime" "${workers[@]}" -test.fuzzcachedir="$cache/$pkg") 2>&1 | tee "$bin/out"; then
        break
      fi
      # Go 1.26's fuzzing coordinator can fail a target at the end of
      # -fuzztime with a bare "context deadline exceeded" when a worker is
      # slow to stop on a loaded machine (go.dev/issue/75804, fixed in Go
      # 1.27): no input failed and nothing was written. That alone is run
      # again (three attempts); any other failure, or a new crasher, fails.
      if [[ $(corpus_size "$repo/$dir/testdata/fuzz/$target") == "$crashers" && $attempt -lt 3 ]] &&
        grep -qx -- "--- FAIL: $target ([0-9.]*s)" "$bin/out" &&
        [[ $(grep -A1 -x -- "--- FAIL: $target ([0-9.]*s)" "$bin/out" | tail -1) == "    context deadline exceeded" ]]; then
        echo "--- $target: the fuzzing coordinator's deadline race (go.dev/issue/75804), no failing input: again"
        continue
      fi
      echo "FAIL: $target in $dir"
      failed=1
      break
    done
  done
done
echo "fuzz smoke: $count targets"
exit "$failed"
