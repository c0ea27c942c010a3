#!/usr/bin/env bash
# Prints the path of Chromium for the end-to-end tests, installing the Debian package when it is
# missing and we can. `npx playwright install` cannot download browsers on these machines, so
# playwright-core drives the distribution's Chromium instead.
#
# The path goes to stdout (callers export it as CHROMIUM_BIN); messages go to stderr.
set -euo pipefail

find_chromium() {
  if [[ -n "${CHROMIUM_BIN:-}" ]]; then
    [[ -f "$CHROMIUM_BIN" && -x "$CHROMIUM_BIN" ]] && echo "$CHROMIUM_BIN" && return 0
    echo "ensure-chromium: CHROMIUM_BIN=$CHROMIUM_BIN is not an executable file" >&2
    exit 1
  fi
  local candidate
  for candidate in /usr/bin/chromium "$(command -v chromium || true)"; do
    [[ -n "$candidate" && -f "$candidate" && -x "$candidate" ]] && echo "$candidate" && return 0
  done
  return 1
}

if find_chromium; then
  exit 0
fi

if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
  echo "ensure-chromium: chromium not found; installing the Debian package chromium" >&2
  apt-get update -qq >&2 || echo "ensure-chromium: apt-get update failed; trying the install anyway" >&2
  # The lock timeout covers a fresh VM whose unattended-upgrades still holds the dpkg lock.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 chromium >&2 \
    || echo "ensure-chromium: apt-get install reported an error; checking for the binary" >&2
  if find_chromium; then
    exit 0
  fi
fi

cat >&2 <<'MSG'
ensure-chromium: Chromium was not found (looked in /usr/bin/chromium and on PATH).
Install it, then re-run:
  Debian:         sudo apt-get install -y chromium
  macOS:          brew install --cask chromium
or point CHROMIUM_BIN at a Chromium or Chrome binary.
MSG
exit 1
