#!/usr/bin/env bash
# symex fuzz (SAGE's generational search) against AFL++ (plain afl-clang-fast instrumentation, no CmpLog,
# no dictionary) on programs whose bug hides behind input guards, with the same seed and time budget:
# executions and seconds to the first crash of each.
#   bench/fuzz-afl.sh [BUDGET_SECONDS]      (default 60; needs the Debian package afl++)
# SYMEX selects the binary (default target/release/symex, else target/debug/symex).
set -euo pipefail
budget="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
symex="${SYMEX:-$root/target/release/symex}"
[ -x "$symex" ] || symex="$root/target/debug/symex"
command -v afl-fuzz >/dev/null || { echo "afl-fuzz not found: apt-get install afl++" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_QUIET=1

# name, program, seed file
cases=(
    "magic+length+checksum|$root/examples/fuzz/magic.c|$root/examples/fuzz/magic.seed"
    "top() on stdin|$root/examples/run/stdin_top.c|$root/examples/fuzz/top.seed"
)
printf '%-24s %-8s %12s %12s %14s\n' program tool "execs/crash" "s/crash" "execs total"
for c in "${cases[@]}"; do
    IFS='|' read -r name prog seed <<< "$c"
    d="$work/$(basename "$prog" .c)"
    mkdir -p "$d/in"
    cp "$seed" "$d/in/seed"
    # symex: runs (= executions) and time to the first crash, from its JSON report.
    "$symex" fuzz "$prog" --stdin --seed "$seed" --max-time "$budget" --json --out "$d/symex" \
        > "$d/symex.json" || true
    python3 - "$d/symex.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
c = r["crashes"]
first = (str(c[0]["run"]), "%.2f" % c[0]["time_s"]) if c else ("none", "none")
print("%-24s %-8s %12s %12s %14s" % (sys.argv[2], "symex", first[0], first[1], r["runs"]))
PY
    # AFL++: its crash file names carry time:MS and execs:N of the find.
    afl-clang-fast -o "$d/afl-bin" "$prog" 2>/dev/null
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
