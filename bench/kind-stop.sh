#!/usr/bin/env bash
# The cost of k-induction on loops its inductive step cannot prove, against plain BMC: for each
# program, `symex bmc --unwind auto` with and without `--k-induction` (same --max-time), the verdicts,
# the seconds of each and their ratio, the bound each stopped at (K) and the inductive steps tried. Under `--unwind auto` the step is
# tried only while it makes progress (MAX_STALLED_STEPS in symex-bmc), within a time box that grows
# with progress; so the ratio should stay near 1 where the step cannot help, and a verdict of plain
# BMC must never be lost (a differing verdict makes the script exit 1, unless k-induction proved TRUE).
#
#   bench/kind-stop.sh [LIMIT]          # LIMIT seconds per run (default 60)
#   SYMEX=path/to/symex bench/kind-stop.sh 30
#   FILES="a.c b.c" bench/kind-stop.sh  # other programs
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
limit="${1:-60}"
symex="${SYMEX:-$here/target/release/symex}"
[ -x "$symex" ] || symex="$here/target/debug/symex"
[ -x "$symex" ] || { echo "build first: cargo build -p symex-cli (or set SYMEX)" >&2; exit 2; }
files="${FILES:-$here/examples/bmc/kind_square_true.c $here/examples/bmc/kind_late_false.c $here/examples/bmc/kind_count.c $here/examples/bmc/lecture_uint.c $here/examples/chc/disjunctive_flag.c $here/examples/chc/post_loop.c $here/examples/chc/twice_bound.c}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
# One run: prints "verdict seconds steps bound" (steps: the inductive steps tried, or -; bound: the K
# it answered at).
one() {
    local f="$1"
    shift
    local t0 t1 v
    t0=$(date +%s.%N)
    "$symex" bmc --unwind auto --max-time "$limit" --json --out "$out/o" "$@" "$f" > "$out/r.json" 2> /dev/null < /dev/null
    t1=$(date +%s.%N)
    v=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r.get("verdict","?"), r.get("induction_steps","-"), r.get("unwind","-"))' "$out/r.json" 2> /dev/null || echo "? - -")
    set -- $v
    echo "$1 $(echo "$t1 - $t0" | bc -l) $2 $3"
}
status=0
printf '%-24s %-13s %7s %5s   %-13s %7s %5s %6s %7s\n' program plain s K k-induction s K steps ratio
for f in $files; do
    read -r pv ps _ pk <<< "$(one "$f")"
    read -r kv ks steps kk <<< "$(one "$f" --k-induction)"
    ratio=$(echo "$ks / ($ps + 0.001)" | bc -l)
    printf '%-24s %-13s %7.2f %5s   %-13s %7.2f %5s %6s %7.2f\n' "$(basename "$f")" "$pv" "$ps" "$pk" "$kv" "$ks" "$kk" "$steps" "$ratio"
    if [ "$pv" != "$kv" ] && [ "$kv" != "true" ]; then
        echo "  k-induction lost plain BMC's answer ($pv -> $kv)"
        status=1
    fi
done
exit $status
