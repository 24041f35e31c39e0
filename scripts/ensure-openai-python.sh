#!/usr/bin/env bash
# Installs the pinned `openai` Python client into the git-ignored .tools/venv (made here when
# missing), so the docs' Python blocks run as tests (test/e2e/docs-blocks.test.ts). Run by .ci/run;
# `npm start` and `npm test` never install it. Prints the venv's python on stdout.
set -euo pipefail

readonly PYPI_PACKAGE="openai==1.109.1"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CAIRN_TOOLS_DIR:-$root/.tools}"
log() { printf 'ensure-openai-python: %s\n' "$*" >&2; }

mkdir -p "$tools"
exec 9>"$tools/.install.lock"
flock 9
if [ ! -x "$tools/venv/bin/python" ]; then
  python="$(command -v python3 || true)"
  [ -n "$python" ] || { log "python3 is needed to run the docs' Python blocks"; exit 1; }
  "$python" -m venv "$tools/venv" >&2
fi
if ! "$tools/venv/bin/python" -c 'import openai' 2>/dev/null; then
  log "installing $PYPI_PACKAGE into $tools/venv"
  "$tools/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$PYPI_PACKAGE" >&2
fi
printf '%s\n' "$tools/venv/bin/python"
