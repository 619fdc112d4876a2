#!/usr/bin/env bash
# Runs `symex its` on the Termination and Complexity Competition's ITS set
# (../shared/benchmarks/tpdb/Complexity_ITS, 838 .koat files) with a time limit per file
# and prints how many got O(1), O(n), O(n^2), O(n^k) (k > 2), EXP, NON_POLY (no bound
# exists: a replayed witness of unbounded runtime, `WORST_CASE(NON_POLY, ?)`, not a
# finite bound), MAYBE, the timeouts and the median time. Every first line is held to the
# Termination Competition's grammar (`WORST_CASE(L, U)`, `YES`, `NO`, `MAYBE`); one outside
# it is listed and makes the script exit 1. An exponential bound, which the grammar has no
# word for, is `WORST_CASE(?, ?)` there and counted as EXP from the `class:` line.
#
#   bench/its.sh [STEP] [LIMIT]   # every STEP-th file (default 1: all), LIMIT s (default 60)
#   SYMEX=path/to/symex bench/its.sh
#   CLASSIFY=1 bench/its.sh 4 60  # also classifies the misses by the prover's reason, and
#                                 # asks `--goal termination` whether a MAYBE is provably NO
#   KEEP=results.tsv bench/its.sh # keeps the per-file lines (ms, answer, file, class, EXP?)
#   OFFSET=1 bench/its.sh 2 60    # the files at positions = OFFSET mod STEP (default 0):
#                                 # OFFSET 0 and 1 of STEP 2 together are the whole set
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
find "$dir" -name '*.koat' | sort | awk -v s="$step" -v o="${OFFSET:-0}" 'NR % s == o' > "$out/files"
total=$(wc -l < "$out/files")
# Why a file got no bound: a timeout, a non-termination proof (`--goal termination`
# answers NO with a replayed witness: no bound exists), or the reason MAYBE gave.
classify() {
    case "$1" in
        "WORST_CASE(NON_POLY"*)
            # The witness says which: a non-terminating run or runs of every length.
            case "$2" in
                *non-terminating*) echo "unbounded: non-terminating" ;;
                *) echo "unbounded: runs of every length" ;;
            esac
            return ;;
        WORST_CASE*) echo finite; return ;;
        TIMEOUT) echo timeout; return ;;
    esac
    case "$2" in
        *timeout*|*"time limit"*) echo timeout; return ;;
    esac
    local nt
    nt=$(timeout "$limit" "$symex" its --quiet --goal termination --max-time "$limit" "$3" 2>/dev/null | head -1 || true)
    if [ "$nt" = NO ]; then echo non-terminating; return; fi
    case "$2" in
        *"no linear ranking function"*) echo "no linear RF" ;;
        *"depend on each other"*) echo "SCC interdependent" ;;
        *"no polynomial size bound"*) echo "no poly size bound" ;;
        *) echo other ;;
    esac
}
# `--max-time` makes symex stop at the limit with `MAYBE` and `reason: timeout`; the
# `timeout` kill (a few seconds later) only catches what overruns it. Both, and any
# answer that came after the limit, count as timeouts.
# The competition's first-line grammar (complexity: L -> ? | Omega(n^Nat) | NON_POLY,
# U -> ? | O(1) | O(n^Nat) | POLY; termination: YES | NO | MAYBE).
nat='(0|[1-9][0-9]*)'
grammar="^(YES|NO|MAYBE|WORST_CASE\((\?|Omega\(1\)|Omega\(n\^$nat\)|NON_POLY), (\?|O\(1\)|O\(n\^$nat\)|POLY)\))\$"
while read -r f; do
    start=$(date +%s%N)
    full=$(timeout $((limit + 5)) "$symex" its --max-time "$limit" "$f" 2>/dev/null || true)
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    answer=$(head -1 <<< "$full")
    if [ -n "$answer" ] && ! grep -qE "$grammar" <<< "$answer"; then
        printf '%s\t%s\n' "${f#"$dir"/}" "$answer" >> "$out/ungrammatical"
    fi
    exp=""
    grep -q '^class: O(EXP)' <<< "$full" && exp=EXP
    reason=$(grep -m1 -e '^reason:' -e '^lower bound:' <<< "$full" || true)
    case "$reason" in *"reason: timeout"*) answer=TIMEOUT ;; esac
    [ -n "$answer" ] && [ "$ms" -le $((limit * 1000)) ] || answer=TIMEOUT
    class=""
    if [ -n "${CLASSIFY:-}" ]; then
        class=$(classify "$answer" "$reason" "$f")
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$ms" "$answer" "${f#"$dir"/}" "$class" "$exp" >> "$out/results"
done < "$out/files"
[ -n "${KEEP:-}" ] && cp "$out/results" "$KEEP"
count() { grep -c -- "$1" "$out/results" || true; }
echo "files: $total (every ${step}th of the set, offset ${OFFSET:-0}), limit ${limit}s"
printf '| %s | %s |\n' "O(1)" "$(count 'O(1))')" "O(n)" "$(count 'O(n^1))')" \
    "O(n^2)" "$(count 'O(n^2))')" "O(n^k), k>2" "$(grep -cE 'O\(n\^([3-9]|[1-9][0-9]+)\)\)' "$out/results" || true)" \
    "EXP" "$(grep -c $'\tEXP$' "$out/results" || true)" "NON_POLY" "$(count 'NON_POLY')" "MAYBE" "$(count 'MAYBE')" \
    "timeout" "$(count 'TIMEOUT')"
echo "finite bounds: $(grep 'WORST_CASE' "$out/results" | grep -vc 'NON_POLY' || true) of $total"
echo "proven unbounded (NON_POLY): $(count 'NON_POLY') of $total"
echo "median time: $(cut -f1 "$out/results" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.2f s\n", m/1000}')"

if [ -n "${CLASSIFY:-}" ]; then
    echo "classes:"
    cut -f4 "$out/results" | sort | uniq -c | sort -rn
fi

if [ -s "$out/ungrammatical" ]; then
    echo "first lines outside the competition's grammar:"
    cat "$out/ungrammatical"
    exit 1
fi
echo "every first line is in the competition's grammar"
