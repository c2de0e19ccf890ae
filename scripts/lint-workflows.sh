#!/usr/bin/env bash
# Checks the GitHub workflows (.github/workflows/*.yml) with actionlint, a
# Go module pinned here: syntax, expressions, job needs, the inputs of the
# actions used, reusable workflow calls. The workflows cannot run here;
# this keeps them at least well-formed. shellcheck's pass over the run:
# scripts is off, so that the result does not depend on what is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
workflows=(.github/workflows/*.yml)
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 -color=false -shellcheck= -pyflakes= "$@"
echo "actionlint: ${#workflows[@]} workflows are well-formed"
