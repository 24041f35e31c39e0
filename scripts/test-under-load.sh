#!/usr/bin/env bash
# `npm run test:under-load`: a fixed subset of the README's test command's tests (the files named
# in test/under-load-subset.txt, chosen for the paths that wait on time or on other processes:
# the front door's deadlines, threads, streams, approvals, control of running work, replay) while
# a busy process holds one of the machine's cores, as on a CI machine shared with other work. A
# green run must not depend on an idle machine: timing claims live in benchmarks, and a test may
# bound time only to tell apart cases that differ by far more than noise. The list is fixed, so
# every run exercises the same files; a path in it that does not exist fails the run before any
# test (a renamed file cannot drop out silently). Prints how long the run took.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

readonly SUBSET=test/under-load-subset.txt
files=()
while IFS= read -r line; do
  line="${line%%#*}"
  line="$(echo "$line" | xargs)"
  [ -n "$line" ] || continue
  [ -f "$line" ] || {
    echo "test:under-load: $SUBSET names $line, which does not exist" >&2
    exit 1
  }
  case "$line" in
    test/integration/* | test/replay/*) files+=("$line") ;;
    *)
      echo "test:under-load: $SUBSET names $line, which is not in npm test's integration project" >&2
      exit 1
      ;;
  esac
done <"$SUBSET"
[ "${#files[@]}" -gt 0 ] || {
  echo "test:under-load: $SUBSET names no test file" >&2
  exit 1
}

# One single-threaded spin: one core's worth of load, at normal priority, for the whole run.
node -e 'for (;;) {}' &
busy=$!
trap 'kill "$busy" 2>/dev/null || true' EXIT
echo "test:under-load: a busy process (pid $busy) holds one core while ${#files[@]} test files of npm test run ($SUBSET)"

started=$(date +%s)
status=0
npx jest --selectProjects integration --runTestsByPath "${files[@]}" || status=$?
echo "test:under-load: the tests exited $status in $(($(date +%s) - started)) s with one core held"
exit "$status"
