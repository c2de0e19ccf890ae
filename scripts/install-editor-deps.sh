#!/usr/bin/env bash
# Installs everything the editor tests (scripts/test-editors.sh) need on a
# fresh Debian machine, as root. Idempotent: a second run only checks.
#   - Debian: neovim (0.7.2 on Debian 12), chromium (driven by Playwright),
#     build tools and libkrb5-dev (code-server's native modules build against Node 24)
#   - npm: the VS Code extension's dependencies (editors/vscode) and the
#     end-to-end test's code-server, Node 24 and playwright-core (editors/vscode/e2e),
#     both with `npm ci` from their lockfiles.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(neovim chromium build-essential python3 libkrb5-dev xz-utils zstd binutils)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-editor-deps: apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when the lockfile changed since the last install (node_modules
# keeps a copy of the lockfile it was installed from).
npm_ci() {
  local dir=$1
  if [[ -f $dir/node_modules/.package-lock.json ]] && cmp -s "$dir/package-lock.json" "$dir/node_modules/.beeuni-installed-lock"; then
    return 0
  fi
  echo "install-editor-deps: npm ci in $dir"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error "${@:2}")
  cp "$dir/package-lock.json" "$dir/node_modules/.beeuni-installed-lock"
}

npm_ci editors/vscode
