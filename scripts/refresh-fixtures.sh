#!/usr/bin/env bash
# Refreshes the repository's copy of the third-party test data from the upstream data folder, when a
# checkout has one beside it (`../shared`, or $TOOLCIRCUIT_SHARED_DIR). This is the only script that reads
# outside the repository; tests and tools read `fixtures/` only, so a plain clone is self-contained.
#
#   bash scripts/refresh-fixtures.sh          # copy, then show what changed (git diff --stat fixtures)
#   bash scripts/refresh-fixtures.sh --check  # exit 1 when the copy differs from the upstream folder
set -euo pipefail
cd "$(dirname "$0")/.."

upstream="${TOOLCIRCUIT_SHARED_DIR:-../shared}"
if [ ! -d "$upstream" ]; then
  echo "refresh-fixtures: no upstream folder at $upstream (set TOOLCIRCUIT_SHARED_DIR); the committed copy stays as it is" >&2
  exit 2
fi

# What is copied: the tool-definition corpus with its SOURCES.md / KEYWORDS.md, and the recorded provider
# traffic (four protocol folders, SOURCES.md and the machine-readable sources.json with a sha256 per file).
copy() {
  local from="$1" to="$2"
  shift 2
  mkdir -p "$to"
  for pattern in "$@"; do
    # shellcheck disable=SC2086
    cp -R $from/$pattern "$to"/
  done
}

if [ "${1:-}" = "--check" ]; then
  status=0
  diff -r -q "$upstream/fixtures/recorded" fixtures/recorded || status=1
  for name in "$upstream"/catalogues/*.json "$upstream"/catalogues/*.md; do
    cmp -s "$name" "fixtures/catalogues/$(basename "$name")" || { echo "differs: $name"; status=1; }
  done
  for name in fixtures/catalogues/*.json; do
    [ -f "$upstream/catalogues/$(basename "$name")" ] || { echo "only in the copy: $name"; status=1; }
  done
  exit "$status"
fi

rm -rf fixtures/recorded
copy "$upstream/catalogues" fixtures/catalogues '*.json' 'SOURCES.md' 'KEYWORDS.md'
copy "$upstream/fixtures" fixtures recorded
# The BFCL questions come from a checkout of ShishirPatil/gorilla (commit in fixtures/bfcl/SOURCES.md), when given.
if [ -n "${TOOLCIRCUIT_BFCL_DATA:-}" ]; then
  node scripts/extract-bfcl-questions.mjs "$TOOLCIRCUIT_BFCL_DATA" 6ea57973c7a6097fd7c5915698c54c17c5b1b6c8
fi
# The tool-search question sets come from clones (or bare mirrors) of four benchmark repositories (commits in
# fixtures/search/SOURCES.md), when given: TOOLCIRCUIT_SEARCH_SOURCES=<folder> holding StableToolBench,
# DAMO-ConvAI, LiveMCPBench and mcp-bench, each as <folder>/<owner>+<name>/repo or <folder>/<name>.
if [ -n "${TOOLCIRCUIT_SEARCH_SOURCES:-}" ]; then
  find_repo() {
    for candidate in "$TOOLCIRCUIT_SEARCH_SOURCES/$1/repo" "$TOOLCIRCUIT_SEARCH_SOURCES/$1/.git" "$TOOLCIRCUIT_SEARCH_SOURCES/$2/.git" "$TOOLCIRCUIT_SEARCH_SOURCES/$2"; do
      if [ -d "$candidate" ]; then echo "$candidate"; return; fi
    done
    echo "refresh-fixtures: no clone of $1 under $TOOLCIRCUIT_SEARCH_SOURCES" >&2
    exit 2
  }
  node scripts/extract-search-sets.mjs \
    --stabletoolbench "$(find_repo THUNLP-MT+StableToolBench StableToolBench)" \
    --api-bank "$(find_repo AlibabaResearch+DAMO-ConvAI DAMO-ConvAI)" \
    --livemcpbench "$(find_repo icip-cas+LiveMCPBench LiveMCPBench)" \
    --mcp-bench "$(find_repo xuhaike+mcp-bench mcp-bench)"
fi
git diff --stat -- fixtures || true
