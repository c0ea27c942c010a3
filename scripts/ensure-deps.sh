#!/usr/bin/env bash
# Installs node_modules when it is missing or older than package-lock.json; silent otherwise.
#
# npm rewrites node_modules/.package-lock.json on every install, so its mtime is the time of the
# last install. A lockfile newer than that (a pull, a branch switch) means the tree may be stale.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

marker=node_modules/.package-lock.json
if [[ -f "$marker" && ! package-lock.json -nt "$marker" ]]; then
  exit 0
fi

echo "ensure-deps: node_modules is missing or older than package-lock.json; installing" >&2
# npm ci is exact and reproducible, but refuses a lockfile out of sync with package.json.
# npm install repairs that case (and rewrites the lockfile, which then shows up in git status).
if ! npm ci --no-audit --no-fund; then
  echo "ensure-deps: npm ci failed; falling back to npm install" >&2
  npm install --no-audit --no-fund
fi
