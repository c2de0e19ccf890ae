#!/usr/bin/env bash
# Builds a release of beeuni-lsp into dist/, publishing nothing:
#
#   scripts/release.sh --snapshot           version <next>-snapshot+<commit>, e.g. 0.1.1-snapshot+61c8dcea227d
#   scripts/release.sh --version 1.2.3      a release (the tag v1.2.3's workflow); needs a clean work tree
#   --out DIR                               another folder than dist/ (emptied first: it must
#                                           be new, empty or an earlier output, which holds
#                                           the marker .beeuni-release)
#
# dist/ then holds, for linux, darwin and windows on amd64 and arm64,
# beeuni-lsp_<version>_<os>_<arch>.tar.gz (.zip for windows) with beeuni-lsp
# (or beeuni-lsp.exe), LICENSE, THIRD_PARTY_LICENSES.txt (the license texts
# of Go and of every module linked into that binary, from the module cache)
# and README.md at the top level; one beeuni-lsp-<target>-<version>.vsix per
# VS Code target of editors/vscode/targets.json with that platform's binary
# in bin/ and a THIRD_PARTY_LICENSES.txt that adds the JavaScript bundled
# into the extension; the JSON Schema of beeuni.yaml, beeuni.schema.json
# (schema/, docs/schema.md); an SBOM (CycloneDX) of the Go modules and the
# bundled JavaScript; checksums.txt for `sha256sum -c`. The build is reproducible:
# CGO_ENABLED=0, -trimpath, no build id, no VCS stamp (the version is linked
# in), every time in the archives the commit's (SOURCE_DATE_EPOCH), so that
# two runs on one commit give the same bytes (scripts/test-release.sh checks
# it). Needs Go, git, Node and editors/vscode/node_modules (npm ci).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

die() { echo "release: $*" >&2; exit 2; }

mode='' version='' out=$repo/dist
while (($#)); do
  case $1 in
    --snapshot) mode=snapshot ;;
    --version) mode=release; version=${2:?--version needs a value}; version=${version#v}; shift ;;
    --out) out=$(realpath -m "${2:?--out needs a folder}"); shift ;;
    *) die "unknown argument $1 (usage: scripts/release.sh --snapshot | --version X.Y.Z [--out DIR])" ;;
  esac
  shift
done
[[ -n $mode ]] || die "say --snapshot or --version X.Y.Z"
# $out is emptied first: only a folder that does not exist, is empty or
# holds the marker of an earlier run (scripts/release-out.sh).
. scripts/release-out.sh
release_out_check "$out" "$repo" || exit

commit=$(git rev-parse HEAD)
short=${commit:0:12}
if [[ $mode == snapshot ]]; then
  # The next release after the latest v* tag: the next patch after
  # v1.2.3, 1.3.0 itself after v1.3.0-rc.1, 0.1.0 before any tag; then the
  # commit, with .dirty for a modified work tree.
  last=$(git describe --tags --abbrev=0 --match 'v[0-9]*' 2>/dev/null || true)
  if [[ -n $last ]]; then
    IFS=. read -r major minor patch <<<"${last#v}"
    if [[ $patch == *-* ]]; then
      next=$major.$minor.${patch%%-*}
    else
      next=$major.$minor.$((patch + 1))
    fi
  else
    next=0.1.0
  fi
  version=$next-snapshot+$short
  [[ -z $(git status --porcelain) ]] || version=$version.dirty
else
  [[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$ ]] ||
    die "--version $version: want a tag's version, X.Y.Z or X.Y.Z-pre (a leading v is dropped)"
  [[ -z $(git status --porcelain) ]] || die "the work tree has changes: a release is built from a clean checkout of its tag"
fi
[[ -f editors/vscode/node_modules/@vscode/vsce/vsce ]] || die "editors/vscode/node_modules missing: run (cd editors/vscode && npm ci)"

SOURCE_DATE_EPOCH=$(git log -1 --format=%ct)
export SOURCE_DATE_EPOCH
echo "release: beeuni-lsp $version, commit $short, time $(date -u -d "@$SOURCE_DATE_EPOCH" +%FT%TZ) -> $out"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/dist" ./internal/release/cmd/dist
# The changelog names only tagged releases, and a release its own section.
"$work/dist" changelog -root "$repo" -version "$([[ $mode == release ]] && echo "$version")" -tags "$(git tag -l 'v[0-9]*')"
release_out_reset "$out" "$repo" || exit

phase() { echo "release: $1 in $((SECONDS - phase_start)) s"; phase_start=$SECONDS; }
phase_start=$SECONDS

# The binaries, once per platform: the archives and the .vsix files share them.
while read -r goos goarch binary; do
  CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch go build -trimpath -buildvcs=false \
    -ldflags "-s -w -buildid= -X github.com/beeuni/beeuni-lsp/internal/version.Linked=$version" \
    -o "$work/bin/${goos}_$goarch/$binary" ./cmd/beeuni-lsp
done < <("$work/dist" platforms)
phase "binaries built"

"$work/dist" archives -version "$version" -bins "$work/bin" -root "$repo" -out "$out"
cp schema/beeuni.schema.json "$out/beeuni.schema.json"
phase "archives written"
node editors/vscode/scripts/package.mjs --all --version "$version" --binaries "$work/bin" --dist "$work/dist" --out "$out" >/dev/null
phase ".vsix files packaged"

# The SBOM of the modules linked into the server, by CycloneDX's Go tool
# (offline: it reads the module cache). It takes the module's version from
# git and cannot read a git worktree, so it runs on a clone of HEAD with the
# work tree's files laid over it.
src=$work/src
git clone --quiet "$repo" "$src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$src"
git ls-files -z --deleted | (cd "$src" && xargs -0 -r rm -f)
(cd "$src" && CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go run github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0 \
  app -json -licenses -noserial -notimestamp -main cmd/beeuni-lsp -output "$out/beeuni-lsp_$version.sbom.cdx.json" . 2>"$work/sbom.log") ||
  { cat "$work/sbom.log" >&2; die "the SBOM could not be made"; }
# The JavaScript bundled into the extension, as the .vsix files bundle it
# (editors/vscode/dist/licenses.json, git-ignored), joins the SBOM.
(cd editors/vscode && node scripts/build.mjs --production)
"$work/dist" sbom-js -js editors/vscode/dist/licenses.json "$out/beeuni-lsp_$version.sbom.cdx.json"
phase "SBOM made"

"$work/dist" checksums "$out"
"$work/dist" check -version "$version" -root "$repo" -sbom "$out"
echo "release: $version in $out"
