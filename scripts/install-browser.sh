#!/usr/bin/env bash
# Installs the headless browser the report tests open pages in (tests/test_report.py): Chromium
# from the system's Debian packages, nothing downloaded by a browser tool of its own. Idempotent:
# does nothing when a chromium is already on PATH. Needs root (or sudo) the first time.
set -euo pipefail

for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then
    exit 0
  fi
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO="sudo"
  else
    echo "install-browser: chromium is missing and this user cannot apt-get install it;" \
         "install the 'chromium' package, or run this script as root" >&2
    exit 1
  fi
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-browser: no apt-get here; install Chromium with this system's package manager" >&2
  exit 1
fi
echo "install-browser: installing chromium (Debian package)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null
command -v chromium >/dev/null
