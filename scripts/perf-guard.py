#!/usr/bin/env python3
"""Performance guard: deterministic figures of fixed workloads compared with a committed baseline.

    python3 scripts/perf-guard.py                      compare with tests/perf/baseline.txt
    python3 scripts/perf-guard.py --update "REASON"    write the measured figures as the new baseline

Every figure is a count that load and noise cannot move: IR instructions executed, solver queries and
paths of complete explorations (`symex run --json`), and machine instructions of symex's own code
(libraries left out) counted by `valgrind --tool=callgrind` for the concrete interpreter (a csmith program replayed) and for one
exploration. The explorations are bounded by Z3's resource limit per query alone, never by time, so
that a loaded machine cannot cut them. A figure more than 10 % worse than the baseline fails (exit 1); so does a path count that
changes by more than 10 % either way (the exploration itself changed). A figure more than 10 % better is
reported, so that the baseline can be lowered. Updating the baseline needs a reason, which the file keeps.

Machine instructions are those of the binary `cargo test` builds (target/debug/symex, the dev profile:
opt-level 1, dependencies at 2), so that CI compiles nothing more; SYMEX names another binary (its
callgrind figures are then not comparable with the baseline's and are only printed).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

# The counts are one thread's (`--jobs` defaults to the core count).
os.environ["SYMEX_JOBS"] = "1"

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
BASELINE = os.path.join(ROOT, "tests", "perf", "baseline.txt")
# ../shared beside the repository, or beside a worktree one level further down (as scripts/shared.sh).
SHARED_BENCH = next((d for d in (os.path.join(ROOT, up, "shared", "bench") for up in ("..", "../.."))
                     if os.path.isdir(d)), None)
TOLERANCE = 0.10
# The csmith program the interpreter's figures come from (about a million IR instructions).
CSMITH_SEED = 4
# The exploration counted by callgrind.
CALLGRIND_EXPLORATION = "sort4"
# Z3's deterministic resource limit per query, the only bound of the guard's explorations: a time limit
# (`--solver-timeout`, 10 s by default) cuts a query on a loaded machine, or under callgrind, and the
# counts would then depend on the load. The hardest query here (parray's) needs between 1e5 and 3e5 steps;
# 1e8 leaves room for other Z3 versions, and a query that runs away still ends, by a count.
SOLVER_RLIMIT = 100_000_000
# No wall-clock bound of any kind: neither a query's time limit nor `--max-time`.
EXPLORE_BOUNDS = ["--solver-rlimit", str(SOLVER_RLIMIT)]


def symex_binary():
    return os.environ.get("SYMEX") or os.path.join(ROOT, "target", "debug", "symex")


def callgrind(cmd, work):
    """Machine instructions the process `cmd` executes in symex's own code: libraries (Z3, LLVM, libc) are
    left out, since Z3's incremental solver falls back to another one after a time budget, which makes
    its own count depend on the speed of the run (children, e.g. clang, are not counted either)."""
    out = os.path.join(work, "callgrind.out")
    r = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + cmd,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # A run cut short (a query that spent its resource limit) would count less work, not less cost.
    last = (r.stdout.strip().splitlines() or ["{}"])[-1]
    rep = json.loads(last) if last.startswith("{") else {}
    if rep.get("complete") is False or (rep.get("outcome") or {}).get("kind") not in (None, "exit"):
        raise RuntimeError(f"under callgrind, {cmd} did not run to its end: {last[:300]}")
    if not os.path.exists(out):
        raise RuntimeError(f"callgrind failed on {cmd}: {r.stderr[-500:]}")
    ann = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", out],
                         capture_output=True, text=True, check=True).stdout
    binary = os.path.realpath(cmd[0])
    total = 0
    for line in ann.splitlines():
        parts = line.split()
        if parts and line.rstrip().endswith(f"[{binary}]") and parts[0][0].isdigit():
            total += int(parts[0].replace(",", ""))
    if total == 0:
        raise RuntimeError(f"callgrind counted nothing in {binary}")
    return total


def explore(symex, program, work):
    """IR instructions, solver queries and paths of a complete `symex run`."""
    out = os.path.join(work, "out-" + os.path.basename(program))
    r = subprocess.run([symex, "run", program, "--quiet", "--json", "--out", out] + EXPLORE_BOUNDS,
                       capture_output=True, text=True)
    rep = json.loads(r.stdout)
    if not rep["complete"]:
        raise RuntimeError(f"{program}: the exploration did not complete (a query spent the resource "
                           f"limit {SOLVER_RLIMIT}, or a path was cut): {rep.get('paths')} paths")
    p = rep["paths"]
    return {
        "ir_instructions": rep["instructions"],
        "queries": rep["solver"]["queries"],
        "paths": p["completed"] + p["errors"] + p["cut"] + p["infeasible"] + p["unsupported"],
    }


def csmith_program(work):
    subprocess.run(["csmith", "--no-packed-struct", "--seed", str(CSMITH_SEED)], cwd=work,
                   stdout=open(os.path.join(work, "p.c"), "w"), check=True)
    with open(os.path.join(work, "empty.json"), "w") as f:
        f.write('{"inputs":[]}')
    return os.path.join(work, "p.c")


def measure(symex, work):
    figures = {}
    perf = os.path.join(ROOT, "tests", "perf")
    for name in ["sort4", "table", "tokens"]:
        for k, v in explore(symex, os.path.join(perf, name + ".c"), work).items():
            figures[(name, k)] = v
    if SHARED_BENCH:
        for name in ["parray", "psort"]:
            for k, v in explore(symex, os.path.join(SHARED_BENCH, name + ".c"), work).items():
                figures[(name, k)] = v
    else:
        print("perf-guard: ../shared/bench is absent: parray and psort are not measured")
    prog = csmith_program(work)
    replay = [symex, "replay", prog, os.path.join(work, "empty.json"), "--json",
              "-I", os.path.join(ROOT, "tests", "csmith")]
    r = subprocess.run(replay, capture_output=True, text=True)
    rep = json.loads(r.stdout.strip().splitlines()[-1])
    if rep["outcome"]["kind"] != "exit":
        raise RuntimeError(f"csmith seed {CSMITH_SEED} did not run to its end: {rep['outcome']}")
    interp = f"csmith{CSMITH_SEED}"
    figures[(interp, "ir_instructions")] = rep["instructions"]
    if shutil.which("valgrind") is None:
        raise RuntimeError("valgrind is missing (scripts/ensure-deps.sh installs it)")
    figures[(interp, "machine_instructions")] = callgrind(replay, work)
    explo = os.path.join(perf, CALLGRIND_EXPLORATION + ".c")
    # Under callgrind a query takes some fifty times longer: the resource limit does not notice.
    figures[(CALLGRIND_EXPLORATION, "machine_instructions")] = callgrind(
        [symex, "run", explo, "--quiet", "--json", "--out", os.path.join(work, "cg-out")] + EXPLORE_BOUNDS,
        work)
    return figures


def read_baseline():
    figures, reason = {}, None
    for line in open(BASELINE):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("reason:"):
            reason = line[len("reason:"):].strip()
            continue
        workload, metric, value = line.split()
        figures[(workload, metric)] = int(value)
    return figures, reason


def write_baseline(figures, reason):
    with open(BASELINE, "w") as f:
        f.write("# Baseline of scripts/perf-guard.py: workload, figure, value (deterministic counts).\n")
        f.write("# Written by `python3 scripts/perf-guard.py --update REASON`; machine instructions are of\n")
        f.write("# target/debug/symex (the dev profile CI builds).\n")
        f.write(f"reason: {reason}\n")
        for (w, m), v in sorted(figures.items()):
            f.write(f"{w} {m} {v}\n")


def compare(figures, base, comparable_machine):
    failed = False
    print(f"{'workload':<10} {'figure':<22} {'baseline':>14} {'now':>14} {'change':>8}")
    for key in sorted(set(figures) | set(base)):
        w, m = key
        if key not in figures:
            print(f"{w:<10} {m:<22} {base[key]:>14} {'(not measured)':>14}")
            continue
        now = figures[key]
        if key not in base:
            print(f"{w:<10} {m:<22} {'(none)':>14} {now:>14}   not in the baseline")
            failed = True
            continue
        old = base[key]
        change = (now - old) / old if old else (0.0 if now == 0 else float("inf"))
        verdict = ""
        if m == "machine_instructions" and not comparable_machine:
            verdict = "(another binary: not compared)"
        elif change > TOLERANCE or (m == "paths" and change < -TOLERANCE):
            verdict = "WORSE" if m != "paths" else "CHANGED"
            failed = True
        elif change < -TOLERANCE:
            verdict = "better: lower the baseline"
        print(f"{w:<10} {m:<22} {old:>14} {now:>14} {change:>+8.1%} {verdict}")
    return failed


def main():
    args = sys.argv[1:]
    symex = symex_binary()
    if not os.path.exists(symex):
        sys.exit(f"perf-guard: {symex} does not exist (build it with cargo build -p symex-cli)")
    with tempfile.TemporaryDirectory() as work:
        figures = measure(symex, work)
    if args[:1] == ["--update"]:
        if len(args) < 2 or not args[1].strip():
            sys.exit("perf-guard: --update needs the reason the figures changed")
        write_baseline(figures, args[1].strip())
        print(f"perf-guard: wrote {BASELINE}")
        return
    base, reason = read_baseline()
    if not reason:
        sys.exit(f"perf-guard: {BASELINE} gives no reason for its figures")
    comparable = "SYMEX" not in os.environ
    if compare(figures, base, comparable):
        print("perf-guard: FAILED: a figure is more than 10 % worse than tests/perf/baseline.txt; if the cost is "
              "intended, update the baseline in the same commit with the reason "
              "(python3 scripts/perf-guard.py --update \"REASON\")")
        sys.exit(1)
    print(f"perf-guard: every figure within 10 % of the baseline ({reason})")


if __name__ == "__main__":
    main()
