#!/usr/bin/env bash
# symex fuzz (SAGE's generational search, mutating when its solver stalls) against AFL++ (plain
# afl-clang-fast instrumentation, no CmpLog, no dictionary) on the examples of each kind of input guard
# (magic, checksum, keywords, hash-tree branches, a 4 KB input, an assumption), with the same seed and
# time budget: executions and seconds to the first crash of each.
#   bench/fuzz-afl.sh [BUDGET_SECONDS]      (default 120; AFL++ rows only where afl-fuzz is installed)
# SYMEX selects the binary (default target/release/symex, else target/debug/symex).
set -euo pipefail
# One symex worker against one afl-fuzz instance.
export SYMEX_JOBS=1
budget="${1:-120}"
root="$(cd "$(dirname "$0")/.." && pwd)"
symex="${SYMEX:-$root/target/release/symex}"
[ -x "$symex" ] || symex="$root/target/debug/symex"
have_afl=1
command -v afl-fuzz >/dev/null || { have_afl=0; echo "afl-fuzz not found (apt-get install afl++): symex only" >&2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_QUIET=1

# name, program, seed file, symex input flags (stdin, or none: the __VERIFIER_nondet_* calls read the
# input, which AFL++ gets through the small runtime below)
cases=(
    "magic+length+checksum|$root/examples/fuzz/magic.c|$root/examples/fuzz/magic.seed|--stdin"
    "top() on stdin|$root/examples/run/stdin_top.c|$root/examples/fuzz/top.seed|--stdin"
    "checksum|$root/examples/fuzz/checksum.c|$root/examples/fuzz/checksum.seed|--stdin"
    "keywords|$root/examples/fuzz/keywords.c|$root/examples/fuzz/keywords.seed|--stdin"
    "hash-tree branches|$root/examples/fuzz/hashtree.c|$root/examples/fuzz/hashtree.seed|--stdin"
    "4 KB, 40 lines|$root/examples/fuzz/longlines.c|$root/examples/fuzz/longlines.seed|--stdin"
    "assume(n > 0)|$root/examples/fuzz/assume.c|$root/examples/fuzz/assume.seed|"
)
cat > "$work/nondet.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
int __VERIFIER_nondet_int(void) { int x = 0; if (read(0, &x, sizeof x) < 0) exit(1); return x; }
void __VERIFIER_assume(int c) { if (!c) exit(0); }
EOF
printf '%-24s %-8s %12s %12s %14s\n' program tool "execs/crash" "s/crash" "execs total"
for c in "${cases[@]}"; do
    IFS='|' read -r name prog seed flags <<< "$c"
    d="$work/$(basename "$prog" .c)"
    mkdir -p "$d/in"
    cp "$seed" "$d/in/seed"
    # symex: runs (= executions) and time to the first crash, from its JSON report.
    # shellcheck disable=SC2086
    "$symex" fuzz "$prog" $flags --seed "$seed" --max-time "$budget" --json --out "$d/symex" \
        > "$d/symex.json" || true
    python3 - "$d/symex.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["crashes"]
first = (str(c[0]["run"]), "%.2f" % c[0]["time_s"]) if c else ("none", "none")
print("%-24s %-8s %12s %12s %14s" % (sys.argv[2], "symex", first[0], first[1], r["runs"]))
PY
    [ "$have_afl" = 1 ] || continue
    # AFL++: its crash file names carry time:MS and execs:N of the find.
    rt=()
    [ -n "$flags" ] || rt=("$work/nondet.c")
    afl-clang-fast -o "$d/afl-bin" "$prog" "${rt[@]}" 2>/dev/null
    timeout $((budget + 30)) afl-fuzz -i "$d/in" -o "$d/afl" -V "$budget" -- "$d/afl-bin" \
        > "$d/afl.log" 2>&1 || true
    first="$(ls "$d/afl/default/crashes" 2>/dev/null | grep '^id:' | sort | head -1 || true)"
    total="$(awk -F: '/^execs_done/ {gsub(/ /,"",$2); print $2}' "$d/afl/default/fuzzer_stats")"
    if [ -n "$first" ]; then
        ms="$(sed -E 's/.*time:([0-9]+).*/\1/' <<< "$first")"
        ex="$(sed -E 's/.*execs:([0-9]+).*/\1/' <<< "$first")"
        printf '%-24s %-8s %12s %12.2f %14s\n' "$name" afl++ "$ex" "$(echo "$ms / 1000" | bc -l)" "$total"
    else
        printf '%-24s %-8s %12s %12s %14s\n' "$name" afl++ none none "$total"
    fi
done
