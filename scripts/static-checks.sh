#!/usr/bin/env bash
# `npm test`'s static checks, on both cores: the type check, Prettier, the import-cycle check and the shared list
# one after another beside ESLint (the longest, and single-threaded like the others). Each
# side's output is printed whole once it is done, so the two never interleave. Fails when
# either side failed.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

(npm run --silent typecheck && npx prettier --check . && npx tsx scripts/check-cycles.ts && npx tsx scripts/shared-list.ts --check) >"$out/a" 2>&1 &
a=$!
npx eslint . >"$out/b" 2>&1 &
b=$!

status=0
wait "$a" || status=1
echo "--- type check, Prettier, import cycles"
cat "$out/a"
wait "$b" || status=1
echo "--- ESLint"
cat "$out/b"
[ "$status" -eq 0 ] && echo "static checks passed" || echo "static checks failed" >&2
exit "$status"
