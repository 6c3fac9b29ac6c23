#!/usr/bin/env bash
# The README's test command (`pnpm test`): builds every package (CLI tests spawn the built binary), makes
# sure a PostgreSQL server is there for the store tests, then runs the whole vitest suite once.
set -euo pipefail
cd "$(dirname "$0")/.."

pnpm exec turbo run build --output-logs=errors-only

started_postgres=0
if [ -z "${TOOLCIRCUIT_TEST_POSTGRES_URL:-}" ]; then
  if bash scripts/postgres.sh start >/dev/null 2>.toolcircuit-postgres.log; then
    started_postgres=1
    export TOOLCIRCUIT_TEST_POSTGRES_URL="$(cat .toolcircuit/postgres-url)"
  else
    # Outside CI the PostgreSQL tests then skip with a visible reason; in CI (CI=true) they fail.
    echo "warning: could not start PostgreSQL (see .toolcircuit-postgres.log); its store tests will not pass in CI" >&2
  fi
fi
cleanup() { if [ "$started_postgres" = 1 ]; then bash scripts/postgres.sh stop || true; fi; rm -f .toolcircuit-postgres.log; }
trap cleanup EXIT

pnpm exec vitest run "$@"
