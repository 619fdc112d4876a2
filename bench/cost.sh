#!/usr/bin/env bash
# Runs `symex cost` on the TPDB complexity programs (tpdb/Complexity_C_Integer, 553 C files)
# and prints how many got O(1), O(n), O(n^2), ..., MAYBE (with the reasons, grouped), how many
# bounds were violated by measurement (concrete runs of the reference interpreter against the
# bound: must be 0), and the median time. Exit status 1 when a bound was violated.
#
#   bench/cost.sh [LIMIT] [STEP]          # LIMIT seconds per program (default 60), every STEP-th file
#   SYMEX=path/to/symex JOBS=2 KEEP=results.tsv RUNS=20 FLAGS=--signed-wrap bench/cost.sh 60
#   RESULTS=results.tsv bench/cost.sh     # only summarise a KEEP file
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
shared="$here/../shared/benchmarks"
[ -d "$shared" ] || shared=/work/shared/benchmarks
limit="${1:-60}"
step="${2:-1}"
symex="${SYMEX:-$here/target/release/symex}"
[ -x "$symex" ] || symex="$here/target/debug/symex"
[ -x "$symex" ] || { echo "build first: cargo build -p symex-cli (or set SYMEX)" >&2; exit 2; }
dir="$shared/tpdb/Complexity_C_Integer"
[ -d "$dir" ] || { echo "no $dir: the benchmarks live in ../shared" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
find "$dir" -name '*.c' | sort | awk -v s="$step" 'NR % s == 0' > "$out/tasks"
# The reason of a MAYBE, grouped (the first matching pattern wins).
cause() {
    case "$1" in
    *"bound withdrawn"*) echo "violated" ;;
    *nsw*|*"signed overflow"*|*"overflow not excluded"*) echo "signed overflow not excluded (ERR)" ;;
    *mul*) echo "mul of two variables" ;;
    *"external function"*) echo "other external functions" ;;
    *"ranking function"*|*"no proof"*) echo "no linear ranking function" ;;
    *"size bound"*|*"depend on each other"*) echo "no size bound" ;;
    *"limit"*|*"time"*) echo "time or state limit" ;;
    *unsupported*|*"not promoted"*|*alloca*|*store*|*load*) echo "unsupported construct (memory, pointers, recursion, ...)" ;;
    *"choose one with --entry"*|*"no function"*) echo "no single entry function" ;;
    "") echo "no answer (crash or timeout)" ;;
    *) echo "other" ;;
    esac
}
run_one() {
    local file="$1" start json class viol within capped reason
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    json=$(timeout $((limit + 30)) "$symex" cost --json --max-time "$limit" --check-runs "${RUNS:-20}" ${FLAGS:-} "$file" 2>"$out/err.$$")
    class=$(jq -r '.bound // "MAYBE"' <<< "$json" 2>/dev/null)
    [ -n "$class" ] || class=MAYBE
    viol=$(jq -r '.check.violated // 0' <<< "$json" 2>/dev/null)
    within=$(jq -r '.check.within // 0' <<< "$json" 2>/dev/null)
    capped=$(jq -r '.check.capped // 0' <<< "$json" 2>/dev/null)
    reason=$(jq -r '.reason // ""' <<< "$json" 2>/dev/null)
    # What the bound is over: constant, inputs, size (variables only), both.
    over=$(jq -r 'if .bound_variables == null then "-" else
        ([.bound_variables[] | startswith("b_umax") or startswith("b_smax")] |
         if length == 0 then "constant" elif all then "size" elif any then "both" else "inputs" end) end' <<< "$json" 2>/dev/null)
    [ -n "$json" ] || reason=$(head -c 300 "$out/err.$$" | tr '\n\t' '  ')
    rm -f "$out/err.$$"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$class" "${viol:-0}" "${within:-0}" "${capped:-0}" \
        "$(( ($(date +%s%N) - start) / 1000000 ))" "$(tr '\t\n' '  ' <<< "$reason" | head -c 400)" "$file" "${over:--}"
}
export -f run_one
export symex limit out
if [ -n "${RESULTS:-}" ]; then
    cp "$RESULTS" "$out/results"
else
    tr '\n' '\0' < "$out/tasks" | xargs -0 -P "${JOBS:-2}" -I{} bash -c 'run_one "$@"' _ {} > "$out/results"
fi
[ -n "${KEEP:-}" ] && cp "$out/results" "$KEEP"
n=$(wc -l < "$out/results")
echo "programs: $n (tpdb/Complexity_C_Integer, every ${step}. file, ${limit} s each${FLAGS:+, $FLAGS})"
awk -F'\t' '{ c[$1]++ } END { for (k in c) printf "  %-10s %d\n", k, c[k] }' "$out/results" | sort
echo "bounds by what they are over (inputs: parameters and input values; size: b_umax/b_smax):"
awk -F'\t' '$1!="MAYBE" { c[$8]++ } END { for (k in c) printf "  %-10s %d\n", k, c[k] }' "$out/results" | sort
echo "MAYBE by reason:"
awk -F'\t' '$1=="MAYBE" { print $6 }' "$out/results" | while IFS= read -r r; do cause "$r"; done |
    sort | uniq -c | sort -rn | sed 's/^/  /'
awk -F'\t' '{ r += $3; v += $2; cap += $4 } END {
    printf "measurement: %d runs within their bound, %d stopped under a larger bound, %d bounds violated\n", r, cap, v }' "$out/results"
sort -t$'\t' -k5,5n "$out/results" | awk -F'\t' '{ t[NR] = $5 } END { printf "median time: %.1f s\n", t[int((NR + 1) / 2)] / 1000 }'
violated=$(awk -F'\t' '$2 > 0' "$out/results" | wc -l)
awk -F'\t' '$2 > 0 { print "  VIOLATED: " $7 ": " $6 }' "$out/results" >&2
[ "$violated" -eq 0 ]
