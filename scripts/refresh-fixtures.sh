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

# Recordings this repository added beyond the upstream collection: listed in sources-added.json (which, with
# the files it lists and the section of SOURCES.md that describes them, a refresh keeps).
added_list() {
  [ -f fixtures/recorded/sources-added.json ] || return 0
  node -e 'for (const row of JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))) console.log(row.dest)' \
    fixtures/recorded/sources-added.json
}
ADDED_HEADING='## Added in this repository'

if [ "${1:-}" = "--check" ]; then
  status=0
  # Every upstream file as it is upstream (SOURCES.md up to the added section), and nothing else but the additions.
  (cd "$upstream/fixtures/recorded" && find . -type f) | while read -r name; do
    if [ "$name" = "./SOURCES.md" ]; then
      sed "/^$ADDED_HEADING/,\$d" fixtures/recorded/SOURCES.md | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' \
        | cmp -s - "$upstream/fixtures/recorded/SOURCES.md" || { echo "differs: $name"; exit 1; }
    else
      cmp -s "$upstream/fixtures/recorded/$name" "fixtures/recorded/$name" || { echo "differs: $name"; exit 1; }
    fi
  done || status=1
  expected=$( { (cd "$upstream/fixtures/recorded" && find . -type f | sed 's|^\./||'); added_list; echo sources-added.json; } | sort -u)
  present=$(cd fixtures/recorded && find . -type f | sed 's|^\./||' | sort)
  [ "$expected" = "$present" ] || { echo "fixtures/recorded holds files that are neither upstream nor in sources-added.json, or lacks some"; status=1; }
  for name in "$upstream"/catalogues/*.json "$upstream"/catalogues/*.md; do
    cmp -s "$name" "fixtures/catalogues/$(basename "$name")" || { echo "differs: $name"; status=1; }
  done
  for name in fixtures/catalogues/*.json; do
    [ -f "$upstream/catalogues/$(basename "$name")" ] || { echo "only in the copy: $name"; status=1; }
  done
  exit "$status"
fi

keep=$(mktemp -d)
added_list | while read -r dest; do
  mkdir -p "$keep/$(dirname "$dest")"
  cp "fixtures/recorded/$dest" "$keep/$dest"
done
if [ -f fixtures/recorded/sources-added.json ]; then
  cp fixtures/recorded/sources-added.json "$keep/"
  sed -n "/^$ADDED_HEADING/,\$p" fixtures/recorded/SOURCES.md > "$keep/SOURCES.added.md"
fi
rm -rf fixtures/recorded
copy "$upstream/catalogues" fixtures/catalogues '*.json' 'SOURCES.md' 'KEYWORDS.md'
copy "$upstream/fixtures" fixtures recorded
# Put the additions back: their files, their manifest, and their section at the end of SOURCES.md.
(cd "$keep" && find . -type f ! -name SOURCES.added.md | sed 's|^\./||') | while read -r name; do
  mkdir -p "fixtures/recorded/$(dirname "$name")"
  cp "$keep/$name" "fixtures/recorded/$name"
done
if [ -s "$keep/SOURCES.added.md" ]; then
  { echo; cat "$keep/SOURCES.added.md"; } >> fixtures/recorded/SOURCES.md
fi
rm -rf "$keep"
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
