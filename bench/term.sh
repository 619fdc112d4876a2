#!/usr/bin/env bash
# Runs `symex term` on the termination benchmarks with their known verdicts and prints, per set,
# YES/NO/MAYBE counts and every WRONG answer (YES on a non-terminating program, NO on a
# terminating one). Exit status 1 when any answer is wrong.
#
#   bench/term.sh [LIMIT] [SET...]   # LIMIT seconds per program (default 60); sets: svcomp,
#                                    # c-integer, svcomp-tpdb, aprove-numeric (default: all),
#                                    # aprove-alloca (memory; not in the default)
#                                    # hensel22 (lists, all terminating), aprove-unsafe (memory-unsafe:
#                                    # any YES is wrong; both not in the default)
#   SYMEX=path/to/symex JOBS=2 KEEP=results.tsv STEP=4 bench/term.sh 60   # STEP: every STEP-th program of each set
#   RESULTS=results.tsv bench/term.sh 60 svcomp ...                      # only summarise a KEEP file
# Verdicts: the SV-COMP rows of tasks.tsv (`termination`, expected true/false, -m32 for ILP32);
# TPDB file names (`_true-termination`, `_false-termination`, `_true.c`, `_false.c`).
# Semantics: `c-integer` runs with `--math-int`: the Termination Competition's C_Integer category
# defines "Integers are treated as mathematical integers (so no overflows can occur) and apart from
# that, the C semantics are used" (termination-portal.org, "C Integer Programs"); its labels are for
# that model. The other sets are C (bit-vector) semantics.
# KEEP's columns: set, expected, answer, ms, file, and the `reason:` line of a MAYBE/NO.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
shared="$here/../shared/benchmarks"
[ -d "$shared" ] || shared=/work/shared/benchmarks
limit="${1:-60}"
shift || true
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(svcomp c-integer svcomp-tpdb aprove-numeric)
symex="${SYMEX:-$here/target/release/symex}"
[ -x "$symex" ] || symex="$here/target/debug/symex"
[ -x "$symex" ] || { echo "build first: cargo build -p symex-cli (or set SYMEX)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for s in "${sets[@]}"; do
    case "$s" in
    svcomp)
        awk -F'\t' -v d="$shared/sv-comp" '$3=="termination" {
            printf "%s\t%s\t%s\t%s\n", "svcomp", ($4=="true" ? "YES" : "NO"), ($6=="ILP32" ? "-m32" : "-"), d "/" $2 }' \
            "$shared/sv-comp/tasks.tsv" ;;
    c-integer|svcomp-tpdb|aprove-numeric|aprove-alloca|hensel22|aprove-unsafe)
        flag=-
        case "$s" in
        c-integer) dir="$shared/tpdb/C_Integer" flag=--math-int ;;
        svcomp-tpdb) dir="$shared/tpdb/C/SV-COMP_Termination_Category" ;;
        aprove-numeric) dir="$shared/tpdb/C/AProVE_numeric" ;;
        aprove-alloca) dir="$shared/tpdb/C/AProVE_memory_alloca" ;;
        hensel22) dir="$shared/tpdb/C/Hensel_22" ;;
        aprove-unsafe) dir="$shared/tpdb/C/AProVE_memory_unsafe" ;;
        esac
        find "$dir" -name '*.c' | sort | while read -r f; do
            b="$(basename "$f")"
            case "$b" in
            *true-termination*|*_true.c) v=YES ;;
            *false-termination*|*_false.c) v=NO ;;
            *) v=unknown ;;
            esac
            case "$s" in hensel22) v=YES ;; aprove-unsafe) v=NO ;; esac
            printf '%s\t%s\t%s\t%s\n' "$s" "$v" "$flag" "$f"
        done ;;
    *) echo "unknown set $s" >&2; exit 2 ;;
    esac
done | awk -F'\t' -v s="${STEP:-1}" '{ n[$1]++ } n[$1] % s == 0' > "$out/tasks"
run_one() {
    IFS=$'\t' read -r set expected flag file <<< "$1"
    local flags=()
    case "$flag" in
    -) ;;
    --*) flags=("$flag") ;;
    *) flags=(--cflags "$flag") ;;
    esac
    local start out ans reason
    start=$(date +%s%N)
    out=$(timeout $((limit + 10)) "$symex" term --check-runs 0 --max-time "$limit" "${flags[@]}" "$file" 2>/dev/null | head -2)
    ans=$(head -1 <<< "$out")
    reason=$(sed -n '2s/^reason: //p' <<< "$out" | tr '\t' ' ')
    [ -n "$ans" ] || ans=TIMEOUT
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$expected" "$ans" "$(( ($(date +%s%N) - start) / 1000000 ))" "$file" "$reason"
}
export -f run_one
export symex limit
if [ -n "${RESULTS:-}" ]; then
    # Summarise an earlier run's results (KEEP) instead of running again.
    cp "$RESULTS" "$out/results"
else
    tr '\n' '\0' < "$out/tasks" | xargs -0 -P "${JOBS:-2}" -I{} bash -c 'run_one "$@"' _ {} > "$out/results"
fi
[ -n "${KEEP:-}" ] && cp "$out/results" "$KEEP"
# Labels contradicted by a native run (clang-14 -O0, the witness inputs, `timeout 3` kills it):
# an answer against them is listed as DISPUTED with the evidence, not counted as wrong.
disputed() {
    case "$1" in
    */termination-bwb/not-02.c) echo "labelled terminating, but x = y = 1 cycles (a,x,y) = (1,1,-2) -> (1,-2,-2) -> (-2,-2,1) -> (-2,1,1) -> (1,1,-2) natively" ;;
    *) return 1 ;;
    esac
}
while IFS=$'\t' read -r set expected ans ms file reason; do
    if { [ "$expected" = YES ] && [ "$ans" = NO ]; } || { [ "$expected" = NO ] && [ "$ans" = YES ]; }; then
        if why=$(disputed "$file"); then
            echo "  DISPUTED: $ans on $file: $why" >&2
            expected=$ans
        fi
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$expected" "$ans" "$ms" "$file" "$reason"
done < "$out/results" > "$out/judged"
mv "$out/judged" "$out/results"
wrong=0
for s in "${sets[@]}"; do
    awk -F'\t' -v s="$s" '$1==s {
        n++; a[$3]++
        if ($2=="YES") { t++; if ($3=="YES") ty++ }
        if (($2=="YES" && $3=="NO") || ($2=="NO" && $3=="YES")) { w++; print "  WRONG: " $3 " on " $5 > "/dev/stderr" }
    } END {
        printf "%-15s %4d programs (%d terminating): YES %d, NO %d, MAYBE %d, timeout %d, wrong %d; YES on %d of %d terminating (%.1f%%)\n",
            s, n, t, a["YES"], a["NO"], a["MAYBE"], a["TIMEOUT"], w, ty, t, (t ? 100*ty/t : 0)
    }' "$out/results"
    wrong=$((wrong + $(awk -F'\t' -v s="$s" '$1==s && (($2=="YES" && $3=="NO") || ($2=="NO" && $3=="YES"))' "$out/results" | wc -l)))
done
echo "wrong answers: $wrong"
[ "$wrong" -eq 0 ]
