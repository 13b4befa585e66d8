#!/usr/bin/env bash
# Mutation-tests what changed since a base commit (docs/testing.md, "Mutation testing"): the
# mutants of the mutation-tested sources (src/tools, src/edits.rs, src/history.rs,
# src/model/validate.rs, src/ranges.rs, src/opencut/params.rs) that a change touches, with the
# tests that exercise them.
#
#   scripts/mutants-changed.sh [BASE]          mutants on changed lines (cargo mutants --in-diff)
#   scripts/mutants-changed.sh --files [BASE]  every mutant of each changed file
#
# BASE defaults to main. MUTANTS_LIST=1 only lists the mutants that would run. Output goes to $MUTANTS_OUT (default /tmp/mutants-changed); the exit
# status is cargo-mutants' own (0: none missed, 2: some missed, 3: timeouts). Shards by index
# (`--shard K/20`) move whenever a file gains or loses mutants, so a change is tested by its
# files or lines, never by a shard number.
set -euo pipefail
cd "$(dirname "$0")/.."

whole=0
if [ "${1:-}" = "--files" ]; then
  whole=1
  shift
fi
base=${1:-main}
sources=(src/tools src/edits.rs src/history.rs src/model/validate.rs src/ranges.rs src/opencut/params.rs)
out=${MUTANTS_OUT:-/tmp/mutants-changed}

args=()
if [ "$whole" = 1 ]; then
  mapfile -t files < <(git diff --name-only "$base" -- "${sources[@]}" | grep '\.rs$' || true)
  for f in "${files[@]}"; do
    [ -f "$f" ] && args+=(-f "$f")
  done
  if [ ${#args[@]} -eq 0 ]; then
    echo "[mutants] no mutation-tested file changed since $base"
    exit 0
  fi
else
  mkdir -p "$out"
  diff="$out/changed.diff"
  git diff "$base" -- "${sources[@]}" >"$diff"
  if [ ! -s "$diff" ]; then
    echo "[mutants] no mutation-tested file changed since $base"
    exit 0
  fi
  args+=(--in-diff "$diff")
fi

if [ "${MUTANTS_LIST:-0}" = 1 ]; then
  exec cargo mutants --list "${args[@]}"
fi

# Fewer property cases and no debug info make a mutant cheaper; effects::fast (the CPU effect
# kernels, most of the lib tests' time) cannot see these sources, so it is skipped.
export PROPTEST_CASES=${PROPTEST_CASES:-64} PROPTEST_MAX_SHRINK_ITERS=32 CARGO_PROFILE_DEV_DEBUG=0
exec nice -n 15 cargo mutants -j 1 --timeout 90 -o "$out" "${args[@]}" -- \
  --lib --test tool_cases --test properties --test validate --test invariants \
  --test listing --test docs --test opencut --test opencut_edits --test cut_ranges --test frame -- --skip effects::fast
