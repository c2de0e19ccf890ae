# The output folder of scripts/release.sh (sourced by it; the Go tests of
# internal/release run these functions alone). The folder is emptied before
# each build, so it must be one the script made: it writes the marker
# .beeuni-release into it, and empties only a folder that does not exist, is
# empty, or holds that marker. Anything else (a regular file, the
# repository or a folder above it, a folder of someone's files) is refused
# before any build starts.

release_marker=.beeuni-release

# release_out_check OUT REPO: exit status 0 when scripts/release.sh may empty
# and fill OUT (an absolute, symlink-free path); otherwise a message on
# stderr and status 2.
release_out_check() {
  local out=$1 repo=$2
  if [[ $out == / || $repo/ == "$out"/* ]]; then
    echo "release: --out $out would empty the repository: name a folder of its own" >&2
    return 2
  fi
  if [[ -e $out || -L $out ]]; then
    if [[ ! -d $out ]]; then
      echo "release: --out $out exists and is no folder: name a new or empty folder" >&2
      return 2
    fi
    if [[ -n $(ls -A "$out") && ! -f $out/$release_marker ]]; then
      echo "release: --out $out holds files and no $release_marker (scripts/release.sh writes it into its output): name a new or empty folder, or empty this one yourself" >&2
      return 2
    fi
  fi
}

# release_out_reset OUT REPO: checks OUT again (it may have changed during
# the build), empties it and marks it as the script's.
release_out_reset() {
  release_out_check "$1" "$2" || return
  rm -rf "$1" && mkdir -p "$1" &&
    echo "written by scripts/release.sh, which empties this folder on its next run" >"$1/$release_marker"
}
