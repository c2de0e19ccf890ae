#!/usr/bin/env bash
# Installs Bun (the runtime the sandbox daemon loads tool modules with) for the
# differential test of module inspection (internal/tsinspect/bun_test.go).
# Bun is published on the npm registry as a platform package,
# @oven/bun-linux-x64, that ships the `bun` binary: `npm pack` fetches it into
# $BEEUNI_BUN_CACHE (default /var/cache/beeuni-bun) and it is unpacked there.
# Idempotent: when the cached binary runs (`bun --version`, not a marker
# file), nothing is fetched. Prints the binary's absolute path on stdout, the
# rest on stderr:
#
#   export BEEUNI_BUN=$(bash scripts/install-bun.sh)   # the tests also find it in the cache
set -euo pipefail
cache=${BEEUNI_BUN_CACHE:-/var/cache/beeuni-bun}
version=${BEEUNI_BUN_VERSION:-1.4.5}
log() { echo "install-bun: $*" >&2; }

case "$(uname -m)" in
x86_64) pkg=bun-linux-x64 ;;
aarch64) pkg=bun-linux-aarch64 ;;
*) log "no Bun package for $(uname -m)"; exit 1 ;;
esac
# The default x64 build needs AVX2; the baseline build runs everywhere else.
if [[ $pkg == bun-linux-x64 ]] && ! grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
  pkg=bun-linux-x64-baseline
fi

dir=$cache/$pkg-$version
bin=$dir/package/bin/bun
if [[ -x $bin ]] && got=$("$bin" --version 2>/dev/null) && [[ $got == "$version" ]]; then
  echo "$bin"
  exit 0
fi

log "fetching @oven/$pkg@$version from the npm registry into $dir"
rm -rf "$dir"
mkdir -p "$dir"
tgz=$(cd "$dir" && npm pack --silent "@oven/$pkg@$version" | tail -1)
tar -xzf "$dir/$tgz" -C "$dir"
rm -f "$dir/$tgz"
chmod +x "$bin"
got=$("$bin" --version) || { log "$bin does not run"; exit 1; }
if [[ $got != "$version" ]]; then
  log "$bin says version $got, want $version"
  exit 1
fi
log "bun $got"
echo "$bin"
