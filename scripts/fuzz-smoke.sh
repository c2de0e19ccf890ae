#!/usr/bin/env bash
# Runs every Go fuzz target of the repository briefly, one target per
# invocation (go test allows only one -fuzz target at a time). The committed
# seed corpora (testdata/fuzz/<FuzzName>/) also run in every plain `go test`;
# this adds a few seconds of new inputs per target.
#
#   FUZZTIME=5s bash scripts/fuzz-smoke.sh        # time per target (default 5s)
#   bash scripts/fuzz-smoke.sh ./internal/diag    # only these package folders
#
# A crasher is written to the package's testdata/fuzz/<FuzzName>/ by go test;
# commit it with the fix so that it stays a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime="${FUZZTIME:-5s}"
if [ "$#" -gt 0 ]; then
  dirs=("$@")
else
  mapfile -t dirs < <(git ls-files --cached --others --exclude-standard '*_test.go' |
    xargs grep -l '^func Fuzz[A-Za-z0-9_]*(f \*testing.F)' | xargs -n1 dirname | sort -u | sed 's|^|./|')
fi

failed=0
count=0
for dir in "${dirs[@]}"; do
  # Target names in that folder, from the source, not from `go test -list`
  # (which would build every package first).
  mapfile -t targets < <(grep -ho '^func Fuzz[A-Za-z0-9_]*(f \*testing.F)' "$dir"/*_test.go |
    sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u)
  for target in "${targets[@]}"; do
    count=$((count + 1))
    printf -- '--- %s %s (%s)\n' "$dir" "$target" "$fuzztime"
    if ! go test -run='^$' -fuzz="^${target}\$" -fuzztime="$fuzztime" "$dir"; then
      echo "FAIL: $target in $dir"
      failed=1
    fi
  done
done
echo "fuzz smoke: $count targets"
exit "$failed"
