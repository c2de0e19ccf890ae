#!/usr/bin/env bash
# The packaging test: builds the release snapshot twice
# (scripts/release.sh --snapshot, into temporary folders) and checks the
# artifacts: every archive opens and holds, at its top level, a binary of
# its OS and architecture (ELF, Mach-O, PE headers) carrying the version,
# LICENSE, THIRD_PARTY_LICENSES.txt (naming every module the binary links)
# and README.md; every .vsix holds its target's binary and the license texts of
# its Go modules and bundled JavaScript; the SBOM, which covers that JavaScript;
# checksums.txt verifies (with sha256sum -c too); the two builds are byte
# for byte the same; the host's binary names the commit.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

head=$(git rev-parse HEAD)
bash scripts/release.sh --snapshot --out "$work/a"
bash scripts/release.sh --snapshot --out "$work/b" | grep '^release: .* in [0-9]* s$' | sed 's/^release: /release (again): /'
[[ $(git rev-parse HEAD) == "$head" ]] || { echo "test-release: HEAD moved during the test: run it again" >&2; exit 1; }
version=$(sed -n 's/^beeuni-lsp_\(.*\)_linux_amd64\.tar\.gz$/\1/p' < <(ls "$work/a"))
SOURCE_DATE_EPOCH=$(git log -1 --format=%ct) go run ./internal/release/cmd/dist check \
  -version "$version" -root . -sbom -same "$work/b" "$work/a"
(cd "$work/a" && sha256sum --quiet -c checksums.txt)

# The binary of this machine's platform runs and names the commit.
goos=$(go env GOOS) goarch=$(go env GOARCH)
if [[ $goos == linux ]]; then
  mkdir "$work/x"
  tar -xzf "$work/a/beeuni-lsp_${version}_${goos}_$goarch.tar.gz" -C "$work/x"
  got=$("$work/x/beeuni-lsp" version)
  want="beeuni-lsp $version"
  [[ $got == "$want" && $version == *"+$(git rev-parse --short=12 HEAD)"* ]] || {
    echo "test-release: the binary says \"$got\", want \"$want\" naming commit $(git rev-parse --short=12 HEAD)" >&2
    exit 1
  }
  echo "test-release: the linux binary says \"$got\""
fi
