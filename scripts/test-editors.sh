#!/usr/bin/env bash
# Runs every editor test against a fresh build of the server. Installs
# nothing: scripts/install-editor-deps.sh puts the tools in place.
#
#   Neovim 0.7.2 (Debian), 0.10 and 0.12 (unpacked by install-editor-deps.sh):
#     the plugin's unit tests, its tests against the real server on a fixture,
#     and on the example projects
#   VS Code extension: type check, unit tests, the host's .vsix, then the
#     end-to-end test in code-server + Chromium
#
# Every part runs even when an earlier one fails; the exit code is non-zero
# when any failed. Set BEEUNI_EDITOR_TESTS to a subset: "neovim vscode e2e".
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
cache=${BEEUNI_EDITORS_CACHE:-/var/cache/beeuni-editors}
parts=${BEEUNI_EDITOR_TESTS:-neovim vscode e2e}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()

section() { printf '\n=== %s\n' "$*"; }
run() { # run NAME COMMAND...: runs a step, timed, remembering a failure
  local name=$1 start=$SECONDS
  shift
  section "$name"
  if "$@"; then
    echo "--- ok: $name ($((SECONDS - start)) s)"
  else
    echo "--- FAILED: $name ($((SECONDS - start)) s)"
    failed+=("$name")
  fi
}

section "build beeuni-lsp"
if ! go build -o "$work/beeuni-lsp" ./cmd/beeuni-lsp; then
  echo "editor tests: beeuni-lsp does not build"
  exit 1
fi
export BEEUNI_LSP=$work/beeuni-lsp

nvim_test() { # nvim_test BINARY TESTFILE
  (cd "$work" && "$1" --headless -u NONE -i NONE -n -c "luafile $repo/editors/neovim/test/$2")
}

if [[ " $parts " == *" neovim "* ]]; then
  for nvim in /usr/bin/nvim "$cache/nvim-trixie/bin/nvim" "$cache/nvim-forky/bin/nvim"; do
    version=$("$nvim" --version 2>/dev/null | head -1)
    if [[ -z $version ]]; then
      echo "editor tests: $nvim missing: run scripts/install-editor-deps.sh"
      failed+=("$nvim missing")
      continue
    fi
    run "$version: plugin unit tests" nvim_test "$nvim" unit.lua
    run "$version: plugin against the server" nvim_test "$nvim" server.lua
    run "$version: the example projects" nvim_test "$nvim" examples.lua
  done
fi

if [[ " $parts " == *" vscode "* || " $parts " == *" e2e "* ]]; then
  vscode() { (cd editors/vscode && "$@"); }
  run "VS Code: type check" vscode npm run --silent typecheck
  run "VS Code: unit tests" vscode npm test --silent
  # Only the host's .vsix: every target is built and checked once by
  # scripts/test-release.sh (release.sh --snapshot).
  run "VS Code: package the host's platform" vscode npm run --silent package
fi

if [[ " $parts " == *" e2e "* ]]; then
  run "VS Code: end-to-end in code-server" bash -c 'cd editors/vscode/e2e && node --test e2e.test.mjs'
fi

section "summary"
if ((${#failed[@]})); then
  printf 'FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "all editor tests passed"
