#!/usr/bin/env bash
# Prints the Python that drives the browser tests, installing what they need on first use: headless Chromium and
# chromium-driver from Debian (apt-get, as root or through sudo) and selenium from PyPI in a virtual environment
# under .build/ (nothing is installed into the system Python).
#
#     browser_python="$(Scripts/browser/setup.sh)"
set -euo pipefail
source "$(dirname "$0")/../lib/common.sh"
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  echo "browser/setup.sh: installing chromium and chromium-driver (Debian)" >&2
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium chromium-driver > /dev/null
fi
venv=".build/browser-venv"
if ! "$venv/bin/python" -c "import selenium" 2>/dev/null; then
  echo "browser/setup.sh: installing selenium into $venv" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.27,<5" >&2
fi
echo "$PWD/$venv/bin/python"
