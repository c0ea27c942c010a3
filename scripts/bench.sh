#!/usr/bin/env bash
# Runs the benchmarks (bench/run.ts); arguments are passed through.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure-deps.sh
REDIS_SERVER_BIN=$(bash scripts/ensure-redis.sh)
export REDIS_SERVER_BIN
# Go only adds the asynq comparison to the benchmarks, so its absence is a warning, even under CI.
if go_bin=$(bash scripts/ensure-go.sh --optional) && [[ -n "$go_bin" && -x tests/go/interop-bin ]]; then
  export ASYNQLENS_GO_BIN="$PWD/tests/go/interop-bin"
fi

# The local tsx rather than npx, which does not pass signals sent to its pid on to the command.
exec node_modules/.bin/tsx bench/run.ts "$@"
