#!/usr/bin/env python3
"""Runs `symex check` on the SV-COMP subset (../shared/benchmarks/sv-comp/tasks.tsv: the unreach-call,
valid-memsafety and no-overflow rows) and prints a table scored the SV-COMP way: +2 correct TRUE, +1 correct
FALSE, -32 wrong TRUE, -16 wrong FALSE, 0 UNKNOWN. A memory-safety FALSE counts as correct only with the
expected subproperty.

Each task runs with its `data_model` column as `--data-model`: ILP32 tasks are compiled for i386
(`clang-14 -m32`, 4-byte pointers and size_t), LP64 ones for x86-64. `--data-model ILP32` keeps the
tasks of one data model only.

usage: scripts/svcomp.py [--limit SECONDS] [--filter SUBSTRING] [--data-model LP64|ILP32] [--symex PATH]
                         [--jobs N]
"""
import argparse
import concurrent.futures
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ../shared from the repository root (also from a worktree one level further down).
SHARED = os.environ.get("SYMEX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(d)), os.path.join(ROOT, "..", "shared"))
BENCH = os.path.join(SHARED, "benchmarks", "sv-comp")
PROPERTIES = ("unreach-call", "valid-memsafety", "no-overflow")


def rows(filt, data_model=""):
    with open(os.path.join(BENCH, "tasks.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            r = dict(zip(header, line.rstrip("\n").split("\t")))
            if r["property"] in PROPERTIES and (not filt or filt in r["input"]) \
                    and (not data_model or r["data_model"] == data_model):
                yield r


def run(symex, r, limit, outdir):
    prp = os.path.join(BENCH, "c", "properties", r["property"] + ".prp")
    cmd = [symex, "check", "--property", prp, "--data-model", r["data_model"],
           "--max-time", str(limit), "--quiet", "--out", outdir,
           os.path.join(BENCH, r["input"])]
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 30)
        lines = p.stdout.strip().splitlines()
        verdict = lines[-1] if lines else "ERROR(%d)" % p.returncode
    except subprocess.TimeoutExpired:
        verdict = "TIMEOUT"
    return verdict, time.time() - start


def score(r, verdict):
    expected = r["expected"]
    if verdict == "TRUE":
        return (2, "correct") if expected == "true" else (-32, "WRONG")
    if verdict.startswith("FALSE"):
        if expected != "false":
            return (-16, "WRONG")
        sub = r.get("subproperty", "-")
        if r["property"] == "valid-memsafety" and sub not in ("", "-"):
            if verdict != "FALSE(%s)" % sub:
                return (-16, "WRONG")
        return (1, "correct")
    return (0, "unknown")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=float, default=60)
    ap.add_argument("--filter", default="")
    ap.add_argument("--data-model", default="", choices=["", "LP64", "ILP32"])
    ap.add_argument("--symex", default=os.path.join(ROOT, "target", "release", "symex"))
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    if not os.path.isdir(BENCH):
        print("skipped: %s is absent" % BENCH)
        return 0
    if not os.path.exists(a.symex):
        print("build symex first: cargo build --release -p symex-cli (or pass --symex)")
        return 2
    tasks = list(rows(a.filter, a.data_model))
    tmp = tempfile.mkdtemp(prefix="symex-svcomp-")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, a.symex, r, a.limit, os.path.join(tmp, str(i)))
                for i, r in enumerate(tasks)]
        results = [f.result() for f in futs]
    total, counts = 0, {"correct true": 0, "correct false": 0, "wrong true": 0,
                        "wrong false": 0, "unknown": 0}
    print("%-62s %-16s %-14s %-22s %7s %5s" % ("task", "property", "expected", "verdict", "time", "pts"))
    for r, (verdict, secs) in zip(tasks, results):
        pts, what = score(r, verdict)
        total += pts
        exp = r["expected"] + ("" if r["subproperty"] in ("", "-") else "(%s)" % r["subproperty"])
        if what == "correct":
            counts["correct " + r["expected"]] += 1
        elif what == "WRONG":
            counts["wrong " + ("true" if verdict == "TRUE" else "false")] += 1
        else:
            counts["unknown"] += 1
        print("%-62s %-16s %-14s %-22s %6.1fs %5d%s" % (
            r["task"], r["property"], exp, verdict, secs, pts, "  <-- WRONG" if what == "WRONG" else ""))
    print()
    print("tasks: %d; %s" % (len(tasks), ", ".join("%s: %d" % kv for kv in counts.items())))
    print("score: %d (of %d possible)" % (total, sum(2 if r["expected"] == "true" else 1 for r in tasks)))
    return 1 if counts["wrong true"] or counts["wrong false"] else 0


if __name__ == "__main__":
    sys.exit(main())
