#!/usr/bin/env bash
# Finds PostgreSQL's server programs (initdb, pg_ctl, postgres) and psql or installs them from
# Debian's packages, then prints the folder holding them on stdout. Everything else goes to
# stderr. `npm run test:cluster` runs its own PostgreSQL from there, in a temporary data
# directory, and reads with psql what Temporal stored (which history shard holds a workflow).
#
# Order: $CAIRN_PG_BIN; the newest /usr/lib/postgresql/<major>/bin (Debian and Ubuntu keep the
# server programs there, off PATH); `initdb` on PATH; else `apt-get install postgresql` when this
# runs as root on a machine with apt-get; else it stops and says how to install it.
set -euo pipefail

log() { printf 'ensure-postgres: %s\n' "$*" >&2; }

works() { [ -x "$1/initdb" ] && [ -x "$1/pg_ctl" ] && [ -x "$1/postgres" ] && [ -x "$1/psql" ]; }

found() {
  log "using $1 ($("$1/postgres" --version))"
  printf '%s\n' "$1"
  exit 0
}

newest_debian() {
  local dir
  dir="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n | tail -n 1)"
  [ -n "$dir" ] && works "$dir" && printf '%s\n' "$dir"
}

if [ -n "${CAIRN_PG_BIN:-}" ]; then
  works "$CAIRN_PG_BIN" || { log "CAIRN_PG_BIN=$CAIRN_PG_BIN holds no initdb, pg_ctl, postgres and psql"; exit 1; }
  found "$CAIRN_PG_BIN"
fi
if dir="$(newest_debian)"; then found "$dir"; fi
if on_path="$(command -v initdb 2>/dev/null)" && works "$(dirname "$on_path")"; then found "$(dirname "$on_path")"; fi

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  start=$(date +%s)
  log "installing Debian's postgresql package with apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # The package would start a cluster of its own at boot; the suite never uses it.
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends postgresql >&2
  if dir="$(newest_debian)"; then
    log "installed in $(($(date +%s) - start)) s"
    found "$dir"
  fi
  log "apt-get installed postgresql, but no /usr/lib/postgresql/<major>/bin holds its programs"
  exit 1
fi

cat >&2 <<'MSG'
ensure-postgres: PostgreSQL's programs (initdb, pg_ctl, postgres, psql) are not installed.
  Install them, then run again:
    sudo apt-get install postgresql        (Debian, Ubuntu)
    or your system's PostgreSQL server package (13 or newer)
  or point CAIRN_PG_BIN at the folder that holds initdb, pg_ctl, postgres and psql.
MSG
exit 1
