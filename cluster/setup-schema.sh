#!/bin/sh
# Creates (or upgrades) Temporal's two PostgreSQL databases — persistence and visibility — with
# temporal-sql-tool and the schemas built into it, for the server version at hand. Run before the
# server starts: by docker-compose.yml (temporal-schema, in the temporalio/admin-tools image) and
# by `npm run test:cluster` (with the tool built from the Go module). POSIX sh, for the image's
# busybox. Reads the same variables as cluster/temporal-config.yaml.tmpl:
#   POSTGRES_SEEDS, DB_PORT (5432), POSTGRES_USER, POSTGRES_PWD, DBNAME (temporal),
#   VISIBILITY_DBNAME (temporal_visibility); SQL_TOOL names the tool (temporal-sql-tool).
set -eu

tool="${SQL_TOOL:-temporal-sql-tool}"

sql() {
  name="$1"
  shift
  "$tool" --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" \
    -u "$POSTGRES_USER" --pw "$POSTGRES_PWD" --db "$name" "$@"
}

setup() {
  db="$1"
  schema="$2"
  # On a second run the database and its version table exist: both steps fail harmlessly, and
  # update-schema (which must succeed) brings the schema to this version.
  sql "$db" create-database >/dev/null 2>&1 || echo "setup-schema: database $db exists"
  sql "$db" setup-schema -v 0.0 >/dev/null 2>&1 || echo "setup-schema: $db already has a schema version"
  sql "$db" update-schema --schema-name "$schema"
  echo "setup-schema: $db is at the $schema schema of this server version"
}

setup "${DBNAME:-temporal}" postgresql/v12/temporal
setup "${VISIBILITY_DBNAME:-temporal_visibility}" postgresql/v12/visibility
