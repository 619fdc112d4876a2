#!/usr/bin/env bash
# Robustness sweep: `symex run --validate-tests` with a short budget on every K-th C program under
# ../shared/benchmarks, two at a time. Prints one line per program that misbehaves — a crash (exit status
# other than 0, 1, 2, 3), a test that does not replay along its path, an internal error, or a run that
# overran its --max-time by more than 10 s — and a summary; exits 1 if any did. OFFSET picks which K-th:
# the programs whose 1-based rank in the sorted list is OFFSET modulo K (0..K-1), so offsets 0..K-1 together
# cover every program once.
# With SWEEP_LOG=FILE set, every program's line (exit status and first stderr line) is kept in FILE.
# usage: scripts/sweep.sh [EVERY_KTH=6] [MAX_SECONDS=3] [OFFSET=0]
set -euo pipefail
# One thread per program: the sweep runs programs side by side.
export SYMEX_JOBS="${SYMEX_JOBS:-1}"
cd "$(dirname "$0")/.."
every=${1:-6}
budget=${2:-3}
offset=${3:-0}
source scripts/shared.sh
require_shared benchmarks
cargo build -q --release -p symex-cli
bench=$(cd "$shared/benchmarks" && pwd)
export SYMEX="$PWD/target/release/symex" BUDGET="$budget"
one() {
    local f=$1 out rc start secs
    out=$(mktemp -d)
    start=$(date +%s)
    rc=0
    timeout $((BUDGET + 60)) "$SYMEX" run --max-time "$BUDGET" --json --tests errors --validate-tests \
        --out "$out/o" "$f" >"$out/r.json" 2>"$out/err.txt" || rc=$?
    secs=$(($(date +%s) - start))
    local why=""
    case $rc in 0 | 1 | 2 | 3) ;; *) why="exit status $rc" ;; esac
    if grep -q "internal\|panicked\|does not replay" "$out/err.txt" "$out/r.json" 2>/dev/null; then
        why="$why internal error or unreplayable test"
    fi
    [ "$secs" -gt $((BUDGET + 10)) ] && why="$why took ${secs}s"
    if [ -n "$why" ]; then
        echo "BAD $f:$why"
    else
        echo "ok $f exit $rc $(grep -m1 . "$out/err.txt" | cut -c1-200)"
    fi
    rm -rf "$out"
}
export -f one
results=$(mktemp)
find "$bench" \( -name '*.c' -o -name '*.i' \) | sort | awk -v k="$every" -v o="$offset" 'NR % k == o' |
    xargs -P 2 -I{} bash -c 'one "$@"' _ {} >"$results"
grep "^BAD" "$results" || true
[ -n "${SWEEP_LOG:-}" ] && cp "$results" "$SWEEP_LOG"
total=$(wc -l <"$results")
bad=$(grep -c "^BAD" "$results" || true)
rm -f "$results"
echo "programs: $total; misbehaving: $bad"
[ "$bad" -eq 0 ]
