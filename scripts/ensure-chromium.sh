#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser test (playwright-core
# drives it; test tools' own browser downloads cannot work without internet). Installs it with
# apt-get when missing and allowed (root, or sudo without a password); otherwise says how.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  echo "ensure-chromium: $(/usr/bin/chromium --version 2>/dev/null | head -n 1)"
  exit 0
fi
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo"; else
  echo "ensure-chromium: /usr/bin/chromium is missing; install it with: sudo apt-get install chromium" >&2
  exit 1
fi
started=$(date +%s)
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
echo "ensure-chromium: installed $(/usr/bin/chromium --version 2>/dev/null | head -n 1) in $(($(date +%s) - started)) s"
