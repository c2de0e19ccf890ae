#!/usr/bin/env bash
# Runs `beeuni-lsp validate` for the GitHub Action (action.yml), its second
# step: with format github, findings become annotations on the change; with
# format sarif, the SARIF log is written to a file named in the step output
# `sarif-file` (for github/codeql-action/upload-sarif, the action's third
# step). With BEEUNI_LSP_UPLOAD_SARIF=true and format github, the SARIF file
# is written too, so that the findings reach code scanning besides the
# annotations. The exit code is validate's: 0 clean, 1 findings that fail
# the check, 2 it cannot run.
#
# Environment: BEEUNI_LSP_BIN (the binary; beeuni-lsp on PATH by default),
# BEEUNI_LSP_FORMAT (github or sarif), BEEUNI_LSP_PATH (the project's folder
# or its beeuni.yaml; empty: the nearest beeuni.yaml from the working folder
# up), BEEUNI_LSP_ARGS (more validate flags, split on blanks),
# BEEUNI_LSP_UPLOAD_SARIF (true or false), BEEUNI_LSP_SARIF_FILE (optional),
# RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY (validate writes every
# finding there with format github).
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
upload="${BEEUNI_LSP_UPLOAD_SARIF:-false}"
case "$upload" in
true | false) ;;
*)
	echo "::error title=beeuni-lsp::input upload-sarif must be true or false, not '$upload'"
	exit 2
	;;
esac
read -r -a extra <<<"${BEEUNI_LSP_ARGS:-}"
# validate_cmd FORMAT: the command line of validate with that format.
validate_cmd() {
	cmd=("$bin" validate --format "$1" ${extra[@]+"${extra[@]}"})
	if [ -n "${BEEUNI_LSP_PATH:-}" ]; then
		cmd+=(-- "$BEEUNI_LSP_PATH")
	fi
}

# write_sarif [quiet]: the SARIF log to its file, named in the step output;
# quiet drops validate's stderr, which the github run beside it prints.
write_sarif() {
	out="${BEEUNI_LSP_SARIF_FILE:-${RUNNER_TEMP:-.}/beeuni-lsp.sarif}"
	validate_cmd sarif
	if [ "${1:-}" = quiet ]; then
		"${cmd[@]}" >"$out" 2>/dev/null
	else
		"${cmd[@]}" >"$out"
	fi
	sarif_code=$?
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		echo "sarif-file=$out" >>"$GITHUB_OUTPUT"
	fi
	echo "beeuni-lsp: SARIF written to $out (exit $sarif_code)"
}

if [ "$format" = github ]; then
	if [ "$upload" = true ]; then
		write_sarif quiet
	fi
	validate_cmd github
	"${cmd[@]}"
	exit $?
fi
write_sarif
exit "$sarif_code"
