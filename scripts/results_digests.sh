#!/usr/bin/env bash
# Runs every experiment of models/ and examples/ (each file with a <simulation>) and prints
# one line per model: its path and the SHA-256 of the CSV results it writes. Two builds give
# bitwise the same results when their outputs are identical:
#   scripts/results_digests.sh OLD/bin/twinblocks > old.txt
#   scripts/results_digests.sh build/bin/twinblocks > new.txt && diff old.txt new.txt
# Plots and summaries are left out (--no-plots --no-summary): the CSV is the result.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="${1:-$root/build/bin/twinblocks}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
cd "$root"
find models examples -name '*.xml' | LC_ALL=C sort | while read -r model; do
  grep -q '<simulation' "$model" || continue
  out="$scratch/$(echo "$model" | tr '/' '_').csv"
  status=0
  "$cli" run "$model" -q --no-plots --no-summary -o "$out" >/dev/null 2>&1 || status=$?
  if [ -f "$out" ]; then
    echo "$model status=$status $(sha256sum "$out" | cut -d' ' -f1)"
  else
    echo "$model status=$status no-results"
  fi
done
