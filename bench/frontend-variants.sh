#!/usr/bin/env bash
# Does running LLVM's mem2reg and simplifycfg before lowering (`--simplify`) help? On csmith programs:
# static IR instructions after lowering, and, through `symex replay --json`, executed IR instructions,
# execution time (loading excluded) and whether the output stays the same. Also checks that the same
# programs compiled with `--cflags=-O2` print the same output (a differential test of the -O2 lowering).
#
#   bash bench/frontend-variants.sh [SEED...]        (default: seeds 1..30)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/ensure-deps.sh"
source "$root/bench/release.sh"
release_symex
(cd "$root" && cargo build --release -q -p symex-ir --example lower)
lower="$(release_dir)/examples/lower"
source "$root/bench/csmith-programs.sh" "$@"
for s in "${seeds[@]}"; do
    "$symex" replay "$work/p$s.c" "$work/empty.json" --json -I "$root/tests/csmith" --max-time 60 \
        > "$work/plain$s.json" 2>/dev/null || true
    "$symex" replay "$work/p$s.c" "$work/empty.json" --json -I "$root/tests/csmith" --max-time 60 --simplify \
        > "$work/simple$s.json" 2>/dev/null || true
    "$symex" replay "$work/p$s.c" "$work/empty.json" --json -I "$root/tests/csmith" --max-time 60 --cflags=-O2 \
        > "$work/o2$s.json" 2>/dev/null || true
done
files=()
for s in "${seeds[@]}"; do files+=("$work/p$s.c"); done
static_plain=$("$lower" -I "$root/tests/csmith" "${files[@]}" | sed -n 's/^total .*insts=//p')
static_simple=$("$lower" -I "$root/tests/csmith" --passes mem2reg,simplifycfg "${files[@]}" | sed -n 's/^total .*insts=//p')
python3 - "$work" "$static_plain" "$static_simple" "${seeds[@]}" <<'PY'
import json, sys
work, sp, ss, seeds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
tot = {"plain": [0, 0.0], "simple": [0, 0.0]}
same = counted = same_o2 = 0
print(f"{'seed':>5} {'outcome':>9} {'instr plain':>12} {'instr simplify':>15} {'t plain':>8} {'t simpl':>8} same-output")
for s in seeds:
    try:
        a = json.load(open(f"{work}/plain{s}.json"))
        b = json.load(open(f"{work}/simple{s}.json"))
    except Exception:
        print(f"{s:>5} (failed)")
        continue
    ka, kb = a["outcome"]["kind"], b["outcome"]["kind"]
    eq = ka == kb and a.get("stdout") == b.get("stdout")
    same += eq
    try:
        c = json.load(open(f"{work}/o2{s}.json"))
        same_o2 += c.get("stdout") == a.get("stdout")
    except Exception:
        pass
    if ka == "exit" and kb == "exit":
        counted += 1
        for k, r in (("plain", a), ("simple", b)):
            tot[k][0] += r["instructions"]
            tot[k][1] += r["time_s"]
    print(f"{s:>5} {ka:>9} {a['instructions']:>12} {b['instructions']:>15} {a['time_s']:>8.3f} {b['time_s']:>8.3f} {eq}")
print(f"static IR instructions: {sp} plain, {ss} with --simplify ({100 * (1 - ss / sp):.0f}% fewer)")
(ip, tp), (is_, ts) = tot["plain"], tot["simple"]
if ip and is_:
    print(f"executed ({counted} programs that exit): {ip} plain, {is_} with --simplify ({100 * (1 - is_ / ip):.0f}% fewer); "
          f"time {tp:.2f} s vs {ts:.2f} s ({tp / ts if ts else 0:.2f}x); rate {ip / tp / 1e6:.1f} vs {is_ / ts / 1e6:.1f} M instr/s")
print(f"same outcome and output with --simplify: {same}/{len(seeds)}")
print(f"same output at -O2: {same_o2}/{len(seeds)}")
PY
