#!/usr/bin/env bash
# symex against KLEE on the exploration benchmarks: processor time, solver queries, paths and peak memory
# of `symex run` (default options, as ../shared/bench/README.md asks) beside KLEE's figures from that README
# (CPU seconds and peak memory of KLEE 3.2 measured on this machine kind). Processor time, not wall time:
# the machines are shared, and the CPU figure is the steadier one.
#
#   bash bench/klee-table.sh [PROGRAM...]      (default: psort parray ptokens)
#
# Builds the release binary (SYMEX=path measures that binary instead). Prints first the concrete interpreter's row (the issue table's first line):
# machine instructions per IR instruction counted by callgrind over csmith seed 30's first 10 M IR
# instructions (the run to 10 M less the run to 1, so that loading cancels out; deterministic), and the
# IR instructions per second of processor time of the same 10 M (not trustworthy on a loaded virtual
# machine, see docs/src/measurements.md); INTERP=0 leaves the row out (callgrind takes minutes). Then one
# row per program: symex's CPU seconds (user + system), the ratio to KLEE's CPU seconds (goal: at most
# 0.2), queries, paths (KLEE's in brackets), peak resident memory in MiB and KLEE's.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/shared.sh
require_shared bench
source bench/release.sh
release_symex
export SYMEX="$symex"
programs=("$@")
[ ${#programs[@]} -gt 0 ] || programs=(psort parray ptokens)
if [ "${INTERP:-1}" != 0 ]; then
    source bench/csmith-programs.sh 30
    # Each replay stops at its instruction limit, which is exit status 3; any other status is a failure.
    limited() {
        local rc=0
        "$@" || rc=$?
        [ "$rc" = 3 ] || { echo "klee-table: exit status $rc (3 expected): $*" >&2; return 1; }
    }
    for n in 1 10000000; do
        limited valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" "$symex" replay \
            "$work/p30.c" "$work/empty.json" -I tests/csmith --max-instructions "$n" --json \
            > "$work/r.$n.json" 2> "$work/cg.$n.log"
    done
    limited "$symex" replay "$work/p30.c" "$work/empty.json" -I tests/csmith \
        --max-instructions 10000000 --json > "$work/r.cpu.json"
    python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def machine(n):
    return next(int(l.split()[1]) for l in open(f"{work}/cg.{n}") if l.startswith(("totals:", "summary:")))
def run(name):
    return json.loads(open(f"{work}/r.{name}.json").read().strip().splitlines()[-1])
ir = run(10000000)["instructions"] - run(1)["instructions"]
per_ir = (machine(10000000) - machine(1)) / ir
cpu = run("cpu")
print(f"interpreter (csmith seed 30, 10 M IR instructions): {per_ir:.1f} machine instructions per IR "
      f"instruction (callgrind); {cpu['instructions'] / cpu['cpu_time_s'] / 1e6:.1f} M IR instructions "
      f"per second of processor time (goal: 100)")
PY
fi
python3 - "$shared/bench" "${programs[@]}" <<'PY'
import json, os, re, subprocess, sys, tempfile

bench, programs = sys.argv[1], sys.argv[2:]
readme = open(os.path.join(bench, "README.md")).read()
# KLEE's paths (the table), CPU seconds ("`psort` 46.6 s") and peak memory ("112, 106 and 254 MiB", in the
# order of the CPU figures).
klee_paths = {m[0]: int(m[1].replace(",", "")) for m in re.findall(r"\| `(\w+)\.c`[^|]*\| ([\d,]+) \|", readme)}
cpu_part = readme[readme.index("CPU seconds"):]
klee_cpu = {m[0]: float(m[1]) for m in re.findall(r"`(\w+)` ([\d.]+) s", cpu_part)}
mem = re.search(r"peak memory: ([\d, and]+) MiB", cpu_part)
klee_mem = dict(zip(klee_cpu, (int(x) for x in re.findall(r"\d+", mem[1])))) if mem else {}

print(f"{'program':<9} {'cpu_s':>8} {'klee_cpu_s':>10} {'ratio':>6} {'queries':>8} {'paths':>16} "
      f"{'peak_MiB':>8} {'klee_MiB':>8} complete")
for p in programs:
    with tempfile.TemporaryDirectory() as out:
        with open(os.path.join(out, "r.json"), "w") as f:
            child = subprocess.Popen([os.environ["SYMEX"], "run", os.path.join(bench, p + ".c"), "--quiet",
                                      "--json", "--out", os.path.join(out, "o")], stdout=f)
            # wait4 gives this child's own processor time and peak resident memory.
            _, _, usage = os.wait4(child.pid, 0)
        rep = json.load(open(os.path.join(out, "r.json")))
    cpu = usage.ru_utime + usage.ru_stime
    peak = usage.ru_maxrss / 1024
    paths = rep["paths"]["completed"] + rep["paths"]["errors"]
    kc, km, kp = klee_cpu.get(p), klee_mem.get(p), klee_paths.get(p, "?")
    ratio = f"{cpu / kc:.2f}" if kc else "?"
    print(f"{p:<9} {cpu:>8.1f} {kc or '?':>10} {ratio:>6} {rep['solver']['queries']:>8} "
          f"{f'{paths} ({kp})':>16} {peak:>8.0f} {km or '?':>8} {rep['complete']}")
PY
