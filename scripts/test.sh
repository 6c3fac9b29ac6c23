#!/usr/bin/env bash
# The README's test command (`pnpm test`): builds every package (CLI tests spawn the built binary), makes
# sure a PostgreSQL server is there for the store tests, then runs the whole vitest suite once.
set -euo pipefail
cd "$(dirname "$0")/.."
# Turborepo prints a telemetry notice on its first run; this project sends it nothing.
export TURBO_TELEMETRY_DISABLED=1

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

# Besides vitest's own report, a JSON report gives the plain closing line "N passed, N failed" that CI reads.
mkdir -p .toolcircuit
status=0
pnpm exec vitest run --reporter=default --reporter=json --outputFile.json=.toolcircuit/test-results.json "$@" || status=$?
if [ -f .toolcircuit/test-results.json ]; then
  node -e 'const r = require(process.argv[1]); console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);' "$PWD/.toolcircuit/test-results.json"
fi
exit "$status"
