#!/usr/bin/env bash
# Prints the directory holding `prometheus` and `promtool`, installing the Debian package
# prometheus when they are missing and we can. The alerting rules' unit tests run promtool, and a
# test scrapes the console with a real Prometheus server (tests/integration/prometheus).
#
# The directory goes to stdout (callers export it as PROMETHEUS_BIN_DIR); messages go to stderr.
# A directory, not one path: the package ships both binaries side by side, and the tests need both.
set -euo pipefail

usable() {
  [[ -f "$1/promtool" && -x "$1/promtool" && -f "$1/prometheus" && -x "$1/prometheus" ]]
}

find_prometheus() {
  if [[ -n "${PROMETHEUS_BIN_DIR:-}" ]]; then
    usable "$PROMETHEUS_BIN_DIR" && echo "$PROMETHEUS_BIN_DIR" && return 0
    echo "ensure-prometheus: PROMETHEUS_BIN_DIR=$PROMETHEUS_BIN_DIR holds no executable prometheus and promtool" >&2
    exit 1
  fi
  local candidate
  for candidate in "$(dirname "$(command -v promtool || echo /nonexistent/promtool)")" /usr/bin /usr/local/bin; do
    usable "$candidate" && echo "$candidate" && return 0
  done
  return 1
}

if find_prometheus; then
  exit 0
fi

if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
  echo "ensure-prometheus: prometheus/promtool not found; installing the Debian package prometheus" >&2
  # Like redis-server, the package starts a system service (on :9090) where an init system runs.
  # The tests never use it (they start their own server on a free port), and in a container its
  # postinst may fail to start it: success is judged by the binaries, not apt-get's exit code.
  # --no-install-recommends: the recommended node exporter is not needed.
  apt-get update -qq >&2 || echo "ensure-prometheus: apt-get update failed; trying the install anyway" >&2
  # The lock timeout covers a fresh VM whose unattended-upgrades still holds the dpkg lock.
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=120 prometheus >&2 \
    || echo "ensure-prometheus: apt-get install reported an error; checking for the binaries" >&2
  if find_prometheus; then
    exit 0
  fi
fi

cat >&2 <<'MSG'
ensure-prometheus: prometheus and promtool were not found (looked on PATH, in /usr/bin and /usr/local/bin).
Install them, then re-run:
  Debian/Ubuntu:  sudo apt-get install -y prometheus
  macOS:          brew install prometheus
or point PROMETHEUS_BIN_DIR at a directory holding both binaries.
MSG
exit 1
