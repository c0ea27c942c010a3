#!/usr/bin/env bash
# Runs the demo: a private redis-server with sample data and the app on http://localhost:8080.
# Arguments are passed to scripts/demo.ts.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/ensure-deps.sh
REDIS_SERVER_BIN=$(bash scripts/ensure-redis.sh)
export REDIS_SERVER_BIN

# The local tsx rather than npx: npm does not pass a SIGTERM/SIGINT sent to its own pid on to the
# command, which would orphan the demo and its redis-server; tsx forwards both.
exec node_modules/.bin/tsx scripts/demo.ts "$@"
