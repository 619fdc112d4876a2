#!/usr/bin/env bash
# Differential test of symex's concrete interpreter against the native build, on csmith programs.
#
#   bash scripts/csmith-diff.sh [FIRST_SEED [LAST_SEED]]     (default: seeds 1..300)
#
# For each seed: generate with `csmith --no-packed-struct --seed S`, compile natively with gcc
# -fsanitize=undefined and drop programs that hit undefined behaviour or run over 5 s, then run the rest
# with `symex replay` (no inputs) and compare standard output byte for byte (the runtime in
# tests/csmith/csmith.h prints the checksum after every global). Prints one line per seed and a summary;
# exits 1 if any output differs. Environment: JOBS (parallel runs, default 2), SYMEX (the binary; default:
# builds target/release/symex), SYMEX_TIME (symex's time budget per program, default 60 s), SYMEX_CFLAGS
# (clang flags for symex's compilation, e.g. -O2 to test vectorised code; default none), KEEP (a directory
# to keep the programs and outputs in).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
first="${1:-1}"
last="${2:-300}"
jobs="${JOBS:-2}"
bash "$root/scripts/ensure-deps.sh"
if [ -z "${SYMEX:-}" ]; then
    (cd "$root" && cargo build --release -q -p symex-cli)
    SYMEX="$root/target/release/symex"
fi
work="${KEEP:-$(mktemp -d)}"
mkdir -p "$work"
echo '{"inputs":[]}' > "$work/empty.json"
export SYMEX work root SYMEX_TIME="${SYMEX_TIME:-60}" SYMEX_CFLAGS="${SYMEX_CFLAGS:-}"

one_seed() {
    local s="$1" d="$work/$1"
    mkdir -p "$d"
    (cd "$d" && csmith --no-packed-struct --seed "$s" > p.c)  # csmith writes platform.info into its working directory
    if ! gcc -w -O0 -fsanitize=undefined -fno-sanitize-recover=undefined -I "$root/tests/csmith" "$d/p.c" -o "$d/native" 2> "$d/gcc.err"; then
        echo "$s dropped gcc-error"; return
    fi
    local st=0
    timeout 5 "$d/native" > "$d/native.out" 2> "$d/native.err" || st=$?
    if [ "$st" -eq 124 ]; then echo "$s dropped slow"; return; fi
    if [ "$st" -ne 0 ] || grep -q "runtime error" "$d/native.err"; then echo "$s dropped ub"; return; fi
    st=0
    "$SYMEX" replay "$d/p.c" "$work/empty.json" --quiet -I "$root/tests/csmith" --max-time "$SYMEX_TIME" --cflags="$SYMEX_CFLAGS" \
        > "$d/symex.out" 2> "$d/symex.err" || st=$?
    case "$st" in
        0) if cmp -s "$d/native.out" "$d/symex.out"; then echo "$s match"; else echo "$s MISMATCH"; fi ;;
        2) echo "$s unsupported $(grep -m1 -o 'unsupported.*' "$d/symex.err" || head -c 200 "$d/symex.err")" ;;
        3) echo "$s symex-time-limit" ;;
        *) echo "$s MISMATCH (symex exit status $st: $(tail -n1 "$d/symex.out"))" ;;
    esac
    [ -n "${KEEP:-}" ] || rm -rf "$d"
}
export -f one_seed

seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c 'one_seed {}' | sort -n | tee "$work/results.txt"
count() { grep -c -- "$1" "$work/results.txt" || true; }
total=$((last - first + 1))
match=$(count " match$")
mismatch=$(count "MISMATCH")
unsupported=$(count " unsupported")
limit=$(count "symex-time-limit")
ub=$(count "dropped ub")
slow=$(count "dropped slow")
gccerr=$(count "dropped gcc-error")
compared=$((match + mismatch + unsupported + limit))
echo "seeds $first..$last: $total generated, $ub dropped (UB), $slow dropped (over 5 s natively), $gccerr dropped (gcc error)"
echo "compared $compared: $match match, $mismatch mismatch, $unsupported unsupported, $limit over symex's time limit"
if [ "$compared" -gt 0 ]; then
    awk -v m="$match" -v c="$compared" 'BEGIN { printf "match rate: %.1f%% (%d/%d)\n", 100 * m / c, m, c }'
fi
[ -n "${KEEP:-}" ] || rm -rf "$work"
[ "$mismatch" -eq 0 ]
