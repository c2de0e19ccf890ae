#!/usr/bin/env bash
# Installs a released beeuni-lsp for the runner's OS and architecture: the
# GitHub Action's first step (action.yml). It downloads the release archive
# and the release's checksums.txt with curl, checks the archive's SHA-256,
# extracts the binary into a folder of its own, adds that folder to
# GITHUB_PATH and writes the binary's path as the step output `bin`.
#
# Environment: BEEUNI_LSP_VERSION (required: 1.2.3 or v1.2.3),
# BEEUNI_LSP_BASE_URL (the releases' download URL; a mirror or, in tests, a
# file:// folder), RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_PATH,
# GITHUB_OUTPUT (set by the runner), BEEUNI_LSP_INSTALL_DIR (optional).
#
# Asset names (the release's): beeuni-lsp_<version>_<os>_<arch>.tar.gz, .zip
# for windows; os linux|darwin|windows, arch amd64|arm64; the archive holds
# beeuni-lsp (beeuni-lsp.exe on windows), LICENSE and README.md at its top.
set -euo pipefail

fail() {
	echo "::error title=beeuni-lsp install::$*"
	exit 1
}

version="${BEEUNI_LSP_VERSION:-}"
version="${version#v}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]] ||
	fail "input version must be a release version such as 1.2.3, not '${BEEUNI_LSP_VERSION:-}'"
base="${BEEUNI_LSP_BASE_URL:-https://github.com/beeuni/beeuni-lsp/releases/download}"
base="${base%/}"

case "${RUNNER_OS:-$(uname -s)}" in
Linux) os=linux ;;
macOS | Darwin) os=darwin ;;
Windows | MINGW* | MSYS* | CYGWIN*) os=windows ;;
*) fail "no beeuni-lsp release for the OS '${RUNNER_OS:-$(uname -s)}'" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
X64 | x86_64 | amd64) arch=amd64 ;;
ARM64 | arm64 | aarch64) arch=arm64 ;;
*) fail "no beeuni-lsp release for the architecture '${RUNNER_ARCH:-$(uname -m)}'" ;;
esac
ext=tar.gz
exe=beeuni-lsp
if [ "$os" = windows ]; then
	ext=zip
	exe=beeuni-lsp.exe
fi
asset="beeuni-lsp_${version}_${os}_${arch}.${ext}"
url="$base/v$version"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
curl -fsSL --retry 3 -o "$work/$asset" "$url/$asset" || fail "cannot download $url/$asset"
curl -fsSL --retry 3 -o "$work/checksums.txt" "$url/checksums.txt" || fail "cannot download $url/checksums.txt"

# sha256sum format: "<hex>  <file>" ("*<file>" in binary mode).
want="$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1; exit }' "$work/checksums.txt")"
[ -n "$want" ] || fail "checksums.txt of v$version has no line for $asset"
if command -v sha256sum >/dev/null 2>&1; then
	got="$(sha256sum "$work/$asset" | awk '{ print $1 }')"
else
	got="$(shasum -a 256 "$work/$asset" | awk '{ print $1 }')"
fi
[ "$got" = "$want" ] || fail "$asset has SHA-256 $got, but checksums.txt says $want: not installing it"

mkdir "$work/x"
if [ "$ext" = zip ]; then
	unzip -q "$work/$asset" -d "$work/x" || fail "cannot extract $asset"
else
	tar -xzf "$work/$asset" -C "$work/x" || fail "cannot extract $asset"
fi
[ -f "$work/x/$exe" ] || fail "$asset holds no $exe at its top level"

dest="${BEEUNI_LSP_INSTALL_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/beeuni-lsp-$version-$os-$arch}"
mkdir -p "$dest"
cp "$work/x/$exe" "$dest/$exe"
chmod +x "$dest/$exe"
if [ -n "${GITHUB_PATH:-}" ]; then
	echo "$dest" >>"$GITHUB_PATH"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	echo "bin=$dest/$exe" >>"$GITHUB_OUTPUT"
fi
echo "beeuni-lsp $version ($os/$arch, SHA-256 checked) installed in $dest"
