#!/usr/bin/env bash
# Runs every check, in order, stopping at the first failure: typecheck, lint, Vitest (unit,
# integration and interop; the interop suite once per asynq release of tests/go/asynq-versions.txt,
# one Vitest project each), then the end-to-end suite once it has specs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# `next build` otherwise sends anonymous telemetry; a test run should not touch the network.
export NEXT_TELEMETRY_DISABLED=1

run_started=$SECONDS

header() {
  printf '\n==> %s\n' "$1"
}

# Runs one step under a header and prints its time; a failing step ends the run with its code.
step() {
  local name=$1 started=$SECONDS rc=0
  shift
  header "$name"
  printf '    $ %s\n' "$*"
  "$@" || rc=$?
  if ((rc != 0)); then
    printf '\n==> FAILED: %s (exit %d after %ds)\n' "$name" "$rc" $((SECONDS - started)) >&2
    exit "$rc"
  fi
  printf '==> %s: ok (%ds)\n' "$name" $((SECONDS - started))
}

# Not a step(): the exports must land in this shell, and a failure here already ends the run
# through set -e, with the ensure script's own message.
header "toolchain"
started=$SECONDS
bash scripts/ensure-deps.sh
REDIS_SERVER_BIN=$(bash scripts/ensure-redis.sh)
CHROMIUM_BIN=$(bash scripts/ensure-chromium.sh)
# promtool judges the alert rules and the exposition; prometheus scrapes a running console.
PROMETHEUS_BIN_DIR=$(bash scripts/ensure-prometheus.sh)
export REDIS_SERVER_BIN CHROMIUM_BIN PROMETHEUS_BIN_DIR
echo "    redis-server: $REDIS_SERVER_BIN"
echo "    chromium:     $CHROMIUM_BIN"
echo "    prometheus:   $PROMETHEUS_BIN_DIR/prometheus, $PROMETHEUS_BIN_DIR/promtool"
go_bin=$(bash scripts/ensure-go.sh)
if [[ -n "$go_bin" && -x tests/go/interop-bin ]]; then
  export ASYNQLENS_GO_BIN="$PWD/tests/go/interop-bin"
  echo "    go:           $go_bin (interop programs: $(cd tests/go && echo interop-bin*), one per asynq release)"
else
  echo "    go:           ${go_bin:-missing} (no interop program; the live interop suite will skip)"
fi
printf '==> toolchain: ok (%ds)\n' $((SECONDS - started))

# Local binaries rather than npx: npx would look a missing one up on the registry, and npm does
# not pass signals sent to its own pid on to the command it runs.
bin=node_modules/.bin
step "typecheck" "$bin/tsc" --noEmit
step "lint" "$bin/eslint" .
step "vitest" "$bin/vitest" run
if [[ -d tests/e2e ]] && [[ -n "$(find tests/e2e -name '*.spec.ts' -print -quit)" ]]; then
  step "build" npm run build
  # The same console built to serve under /asynq, beside the first build (tests/e2e/launcher.spec.ts).
  step "build under a base path" env ASYNQLENS_BASE_PATH=/asynq ASYNQLENS_DIST_DIR=.next-asynq npm run build
fi
if [[ -f tests/e2e/run.ts ]]; then
  step "e2e" "$bin/tsx" tests/e2e/run.ts
fi

printf '\n==> all checks passed (%ds)\n' $((SECONDS - run_started))
