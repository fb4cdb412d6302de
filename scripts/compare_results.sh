#!/usr/bin/env bash
# Do two builds give bitwise the same results? Runs every experiment of models/ and examples/
# with each (scripts/results_digests.sh) and compares the SHA-256 of their CSV results.
#   scripts/compare_results.sh OLD_BINARY [NEW_BINARY]
#   scripts/compare_results.sh --rev GIT_REVISION [NEW_BINARY]
# With --rev, the revision is checked out in a temporary worktree and its command line built
# there (ccache makes that quick when the two trees share most files). NEW_BINARY defaults to
# build/bin/twinblocks. Prints the models whose results differ; exit status 0 when none does,
# 1 when some does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
scratch="$(mktemp -d)"
cleanup() {
  if [ -n "${worktree:-}" ]; then git -C "$root" worktree remove --force "$worktree" || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT
worktree=""
if [ "${1:-}" = "--rev" ]; then
  [ $# -ge 2 ] || { echo "usage: $0 --rev GIT_REVISION [NEW_BINARY]" >&2; exit 2; }
  worktree="$scratch/old"
  git -C "$root" worktree add --detach -q "$worktree" "$2"
  echo "building $2 in $worktree ..." >&2
  CCACHE_BASEDIR="$worktree" cmake -S "$worktree" -B "$worktree/build" -G Ninja \
      -DCMAKE_BUILD_TYPE=Release -DTWINBLOCKS_BUILD_TESTS=OFF -DTWINBLOCKS_BUILD_BENCH=OFF \
      -DTWINBLOCKS_PYTHON=OFF >/dev/null
  CCACHE_BASEDIR="$worktree" cmake --build "$worktree/build" --target twinblocks_cli >/dev/null
  old="$worktree/build/bin/twinblocks"
  shift 2
else
  [ $# -ge 1 ] || { echo "usage: $0 OLD_BINARY [NEW_BINARY] | --rev GIT_REVISION [NEW_BINARY]" >&2; exit 2; }
  old="$1"
  shift
fi
new="${1:-$root/build/bin/twinblocks}"
"$root/scripts/results_digests.sh" "$old" > "$scratch/old.txt"
"$root/scripts/results_digests.sh" "$new" > "$scratch/new.txt"
models=$(wc -l < "$scratch/new.txt")
if diff "$scratch/old.txt" "$scratch/new.txt" > "$scratch/diff.txt"; then
  echo "$models models: bitwise the same results"
  exit 0
fi
echo "results differ:"
cat "$scratch/diff.txt"
exit 1
