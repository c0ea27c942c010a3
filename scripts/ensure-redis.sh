#!/usr/bin/env bash
# Prints the path of redis-server, installing the Debian package when it is missing and we can.
#
# The path goes to stdout (callers export it as REDIS_SERVER_BIN); messages go to stderr.
# The search order matches scripts/support/redis-server.ts.
set -euo pipefail

find_redis() {
  if [[ -n "${REDIS_SERVER_BIN:-}" ]]; then
    [[ -f "$REDIS_SERVER_BIN" && -x "$REDIS_SERVER_BIN" ]] && echo "$REDIS_SERVER_BIN" && return 0
    echo "ensure-redis: REDIS_SERVER_BIN=$REDIS_SERVER_BIN is not an executable file" >&2
    exit 1
  fi
  local candidate
  for candidate in "$(command -v redis-server || true)" /usr/bin/redis-server /usr/local/bin/redis-server; do
    [[ -n "$candidate" && -f "$candidate" && -x "$candidate" ]] && echo "$candidate" && return 0
  done
  return 1
}

if find_redis; then
  exit 0
fi

if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
  echo "ensure-redis: redis-server not found; installing the Debian package redis-server" >&2
  # The package also starts a system service on 6379 where an init system runs. We never use it
  # (every suite starts its own server on a free port), and in a container its postinst may fail
  # to start it, making apt-get exit non-zero although the binary is installed. So judge success
  # by the binary, not by apt-get's exit code.
  apt-get update -qq >&2 || echo "ensure-redis: apt-get update failed; trying the install anyway" >&2
  # The lock timeout covers a fresh VM whose unattended-upgrades still holds the dpkg lock.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=120 redis-server >&2 \
    || echo "ensure-redis: apt-get install reported an error; checking for the binary" >&2
  if find_redis; then
    exit 0
  fi
fi

cat >&2 <<'MSG'
ensure-redis: redis-server was not found (looked on PATH, in /usr/bin and /usr/local/bin).
Install it, then re-run:
  Debian/Ubuntu:  sudo apt-get install -y redis-server
  macOS:          brew install redis
or point REDIS_SERVER_BIN at a redis-server binary.
MSG
exit 1
