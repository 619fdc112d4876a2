#!/usr/bin/env bash
# Runs `symex its` on the Termination and Complexity Competition's ITS set
# (../shared/benchmarks/tpdb/Complexity_ITS, 838 .koat files) with a time limit per file
# and prints how many got O(1), O(n), O(n^2), O(n^k) (k > 2), EXP, MAYBE, the timeouts
# and the median time.
#
#   bench/its.sh [STEP] [LIMIT]   # every STEP-th file (default 1: all), LIMIT s (default 60)
#   SYMEX=path/to/symex bench/its.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dir="${ITS_DIR:-$here/../shared/benchmarks/tpdb/Complexity_ITS}"
[ -d "$dir" ] || dir=/work/shared/benchmarks/tpdb/Complexity_ITS
step="${1:-1}"
limit="${2:-60}"
symex="${SYMEX:-$here/target/release/symex}"
[ -x "$symex" ] || { echo "build first: cargo build --release -p symex-cli (or set SYMEX)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
find "$dir" -name '*.koat' | sort | awk -v s="$step" 'NR % s == 0' > "$out/files"
total=$(wc -l < "$out/files")
while read -r f; do
    start=$(date +%s%N)
    answer=$(timeout "$limit" "$symex" its --quiet --max-time "$limit" "$f" 2>/dev/null | head -1 || true)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ -n "$answer" ] || answer=TIMEOUT
    printf '%s\t%s\t%s\n' "$ms" "$answer" "${f#"$dir"/}" >> "$out/results"
done < "$out/files"
[ -n "${KEEP:-}" ] && cp "$out/results" "$KEEP"
count() { grep -c -- "$1" "$out/results" || true; }
echo "files: $total (every ${step}th of the set), limit ${limit}s"
printf '| %s | %s |\n' "O(1)" "$(count 'O(1))')" "O(n)" "$(count 'O(n))')" \
    "O(n^2)" "$(count 'O(n^2))')" "O(n^k), k>2" "$(grep -cE 'O\(n\^([3-9]|[1-9][0-9]+)\)\)' "$out/results" || true)" \
    "EXP" "$(count 'EXP')" "MAYBE" "$(count 'MAYBE')" "timeout" "$(count 'TIMEOUT')"
echo "finite bounds: $(grep -c 'WORST_CASE' "$out/results" || true) of $total"
echo "median time: $(cut -f1 "$out/results" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f s\n", m/1000}')"
