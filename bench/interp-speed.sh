#!/usr/bin/env bash
# Speed of symex's concrete interpreter in IR instructions per second, on csmith programs.
#
#   bash bench/interp-speed.sh [SEED...]        (default: seeds 1..30)
#
# Builds the release binary, generates each program with `csmith --no-packed-struct --seed S`, runs it
# with `symex replay --json` and reads the instruction count and the processor time of the execution
# (`cpu_time_s`: loading and lowering excluded, and little affected by other processes on the machine). Prints one line per program and two rates (all instructions / all
# execution time): over the programs that ran to their end, and over every run including those stopped
# by the 20 s budget (long-running programs: a sustained rate).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/ensure-deps.sh"
source "$root/bench/release.sh"
release_symex
source "$root/bench/csmith-programs.sh" "$@"
for s in "${seeds[@]}"; do
    "$symex" replay "$work/p$s.c" "$work/empty.json" --json -I "$root/tests/csmith" --max-time 20 \
        > "$work/p$s.json" 2>/dev/null || true
done
python3 - "$work" "${seeds[@]}" <<'PY'
import json, sys
work, seeds = sys.argv[1], sys.argv[2:]
total_i = total_t = 0
all_i = all_t = 0
print(f"{'seed':>6} {'outcome':>10} {'instructions':>14} {'cpu_s':>8} {'Minstr/s':>9}")
for s in seeds:
    try:
        r = json.load(open(f"{work}/p{s}.json"))
    except Exception:
        print(f"{s:>6} {'(failed)':>10}")
        continue
    i, t, k = r["instructions"], r["cpu_time_s"], r["outcome"]["kind"]
    all_i += i
    all_t += t
    if k != "exit":
        print(f"{s:>6} {k:>10} {i:>14} {t:>8.3f} {i / t / 1e6 if t else 0:>9.1f}  (stopped by the budget)")
        continue
    total_i += i
    total_t += t
    print(f"{s:>6} {k:>10} {i:>14} {t:>8.3f} {i / t / 1e6 if t else 0:>9.1f}")
if total_t:
    print(f"programs run to their end: {total_i} instructions in {total_t:.2f} s = {total_i / total_t / 1e6:.1f} million IR instructions/s")
if all_t:
    print(f"all runs: {all_i} instructions in {all_t:.2f} s = {all_i / all_t / 1e6:.1f} million IR instructions/s")
PY
