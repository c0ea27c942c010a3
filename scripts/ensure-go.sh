#!/usr/bin/env bash
# Prints the path of the Go toolchain and builds the interop program tests/go/interop-bin, once
# per asynq release the suite runs against (tests/go/asynq-versions.txt).
#
# The live interop suite runs the real github.com/hibiken/asynq against the same Redis as our
# TypeScript code: it is the compatibility proof. So a missing Go is loud, and fatal under CI.
# The Go path goes to stdout; everything else (including go build output) goes to stderr.
#
# Usage: ensure-go.sh [--optional]
#   --optional  never fail on a missing Go, even under CI (for the benchmarks).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

optional=false
[[ "${1:-}" == --optional ]] && optional=true

go_bin=""
for candidate in "$(command -v go || true)" /usr/local/go/bin/go; do
  if [[ -n "$candidate" && -f "$candidate" && -x "$candidate" ]]; then
    go_bin=$candidate
    break
  fi
done

if [[ -z "$go_bin" ]]; then
  cat >&2 <<'MSG'

##############################################################################
##  WARNING: Go was not found (looked on PATH and at /usr/local/go/bin/go).  ##
##                                                                          ##
##  The Go interop suite WILL BE SKIPPED. It is the compatibility proof     ##
##  against the real github.com/hibiken/asynq; without it nothing shows     ##
##  that asynqlens reads and writes what asynq servers do.                  ##
##                                                                          ##
##  Install Go (https://go.dev/dl/) and re-run.                             ##
##############################################################################

MSG
  if [[ "${CI:-}" == true && "$optional" == false ]]; then
    echo "ensure-go: a missing Go is a failure under CI (CI=true); stopping." >&2
    exit 1
  fi
  exit 0
fi

echo "$go_bin"

if [[ ! -f tests/go/go.mod ]]; then
  echo "ensure-go: tests/go/go.mod does not exist yet; skipping the interop build" >&2
  exit 0
fi
if ! compgen -G 'tests/go/*.go' >/dev/null; then
  echo "ensure-go: tests/go has no .go files yet; skipping the interop build" >&2
  exit 0
fi

# One binary per asynq release in tests/go/asynq-versions.txt (version, modfile, binary, tags),
# all from the same source. The first build of each downloads that release through the Go
# module proxy; later builds hit Go's cache.
while read -r version modfile binary tags; do
  [[ -z "$version" || "$version" == \#* ]] && continue
  args=(build -o "$binary")
  [[ "$modfile" != go.mod ]] && args+=(-modfile="$modfile")
  [[ "$tags" != - ]] && args+=(-tags="$tags")
  if ! (cd tests/go && "$go_bin" "${args[@]}" .) >&2; then
    # A stale binary must not pass for the current sources.
    rm -f "tests/go/$binary"
    echo "ensure-go: go build of tests/go against asynq $version failed" >&2
    exit 1
  fi
  echo "ensure-go: built tests/go/$binary (asynq $version)" >&2
done <tests/go/asynq-versions.txt
