#!/usr/bin/env bash
# Runs `beeuni-lsp validate` for the GitHub Action (action.yml), its second
# step: with format github, findings become annotations on the change; with
# format sarif, the SARIF log is written to a file named in the step output
# `sarif-file` (for github/codeql-action/upload-sarif). The exit code is
# validate's: 0 clean, 1 findings that fail the check, 2 it cannot run.
#
# Environment: BEEUNI_LSP_BIN (the binary; beeuni-lsp on PATH by default),
# BEEUNI_LSP_FORMAT (github or sarif), BEEUNI_LSP_PATH (the project's folder
# or its beeuni.yaml; empty: the nearest beeuni.yaml from the working folder
# up), BEEUNI_LSP_ARGS (more validate flags, split on blanks),
# BEEUNI_LSP_SARIF_FILE (optional), RUNNER_TEMP, GITHUB_OUTPUT.
set -uo pipefail

bin="${BEEUNI_LSP_BIN:-beeuni-lsp}"
format="${BEEUNI_LSP_FORMAT:-github}"
case "$format" in
github | sarif) ;;
*)
	echo "::error title=beeuni-lsp::input format must be github or sarif, not '$format'"
	exit 2
	;;
esac
read -r -a extra <<<"${BEEUNI_LSP_ARGS:-}"
cmd=("$bin" validate --format "$format" ${extra[@]+"${extra[@]}"})
if [ -n "${BEEUNI_LSP_PATH:-}" ]; then
	cmd+=(-- "$BEEUNI_LSP_PATH")
fi

if [ "$format" = github ]; then
	"${cmd[@]}"
	exit $?
fi
out="${BEEUNI_LSP_SARIF_FILE:-${RUNNER_TEMP:-.}/beeuni-lsp.sarif}"
"${cmd[@]}" >"$out"
code=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	echo "sarif-file=$out" >>"$GITHUB_OUTPUT"
fi
echo "beeuni-lsp: SARIF written to $out (exit $code)"
exit "$code"
