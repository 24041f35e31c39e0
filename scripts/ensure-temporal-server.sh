#!/usr/bin/env bash
# Finds or builds the Temporal server (`temporal-server`) and its SQL schema tool
# (`temporal-sql-tool`) at the version pinned in cluster/temporal-server.version, then prints the
# folder holding both on stdout. Everything else goes to stderr.
#
# They are built from the Go module proxy (`go.temporal.io/server`, the same code the official
# `temporalio/server` image runs) into the git-ignored .tools/temporal-server-<version>/ and
# cached there. The build runs under `nice -n 19`: it is the slowest step of a cold CI run and
# should not starve whatever else the machine does. Used by `npm run test:cluster`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
version="$(tr -d '[:space:]' <"$root/cluster/temporal-server.version")"
tools="${CAIRN_TOOLS_DIR:-$root/.tools}"
target="$tools/temporal-server-$version"
readonly MODULE="go.temporal.io/server"

log() { printf 'ensure-temporal-server: %s\n' "$*" >&2; }

works() { [ -x "$target/temporal-server" ] && [ -x "$target/temporal-sql-tool" ] && "$target/temporal-server" --version >/dev/null 2>&1; }

if works; then
  log "using $target ($("$target/temporal-server" --version 2>/dev/null | head -n 1))"
  printf '%s\n' "$target"
  exit 0
fi

command -v go >/dev/null 2>&1 || {
  log "Go is needed to build $MODULE@v$version (install Go from https://go.dev/dl or your package manager)"
  exit 1
}

mkdir -p "$tools"
exec 9>"$tools/.install-temporal-server.lock"
flock 9
if ! works; then
  start=$(date +%s)
  log "building $MODULE@v$version (cmd/server, cmd/tools/sql) with nice -n 19; this takes a while on a small machine"
  scratch="$(mktemp -d "$tools/.temporal-server-build.XXXXXX")"
  trap 'rm -rf "$scratch"' EXIT
  # GOTOOLCHAIN=auto: the module's go.mod names the Go release it needs (v1.32.2 asks for 1.26.10);
  # `go install` then fetches that toolchain through the module proxy when the machine's Go is older,
  # even where the machine's Go defaults to GOTOOLCHAIN=local.
  GOTOOLCHAIN=auto CGO_ENABLED=0 GOBIN="$scratch/bin" nice -n 19 \
    go install -trimpath "$MODULE/cmd/server@v$version" "$MODULE/cmd/tools/sql@v$version" >&2
  mkdir -p "$scratch/out"
  mv "$scratch/bin/server" "$scratch/out/temporal-server"
  mv "$scratch/bin/sql" "$scratch/out/temporal-sql-tool"
  rm -rf "$target"
  mv "$scratch/out" "$target"
  works || { log "built, but $target/temporal-server does not run"; exit 1; }
  log "built in $(($(date +%s) - start)) s"
fi
log "using $target ($("$target/temporal-server" --version 2>/dev/null | head -n 1))"
printf '%s\n' "$target"
