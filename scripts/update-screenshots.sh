#!/usr/bin/env bash
# Refreshes the screenshots of README.md, docs/editors.md and the VS Code
# extension's README (docs/images/vscode*.png) from the end-to-end test in
# code-server. The tests themselves never write into the work tree: this is
# the one command that does. Needs scripts/install-editor-deps.sh first.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd editors/vscode && npm run --silent package)
(cd editors/vscode/e2e && BEEUNI_SCREENSHOTS="$PWD/../../../docs/images" node --test e2e.test.mjs)
git status --short docs/images
