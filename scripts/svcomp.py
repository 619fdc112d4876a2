#!/usr/bin/env python3
"""Runs `symex check` on the SV-COMP subset (the task-definition files `*.yml` under
../shared/benchmarks/sv-comp/c, read here with PyYAML: their unreach-call, valid-memsafety, valid-memcleanup, no-overflow and
termination properties) and prints a table scored the SV-COMP way: +2 correct TRUE, +1 correct
FALSE, -32 wrong TRUE, -16 wrong FALSE, 0 UNKNOWN. A memory-safety FALSE counts as correct only with the
expected subproperty.

Each property runs as `symex check --property PRP TASK.yml` (symex reads the task file itself; the
expected verdicts scored here come from this script's own reading). The task's `options.data_model`
(LP64 where a format-1.0 task has no options) decides the build: ILP32 tasks are compiled for i386
(`clang-14 -m32`, 4-byte pointers and size_t), LP64 ones for x86-64. `--data-model ILP32` keeps the
tasks of one data model only.

Each TRUE's YAML 2.0 correctness witness is checked by scripts/check_invariants.py --no-native (metadata,
hash, each loop invariant at a loop keyword). A termination FALSE's GraphML stem-and-cycle witness is checked by scripts/check_witness.py
--expect-kind nontermination (its stem's values fed to the native build, which must not end within 5 s); a
termination TRUE has no correctness witness to check. Each other FALSE's witness is read back by `symex
validate` (it must confirm the violation), and its YAML 2.0 witness (`--witness`) is checked by scripts/check_witness.py (well-formed, hash,
lines, and its nondet values reproducing the violation on the native build). Each FALSE is confirmed by replaying its test on a native build (`symex replay --native`); the native
build reads uninitialised memory as zero, so a test giving it other values is replayed with them zeroed
("agrees, uninit as zero" when that run reaches the violation too).

usage: scripts/svcomp.py [--limit SECONDS] [--filter SUBSTRING] [--data-model LP64|ILP32]
                         [--property unreach-call|valid-memsafety|valid-memcleanup|no-overflow|termination]
                         [--symex PATH]
                         [--jobs N] [--no-native]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# ../shared from the repository root (also from a worktree one level further down).
SHARED = os.environ.get("SYMEX_SHARED") or next(
    (d for d in (os.path.join(ROOT, "..", "shared"), os.path.join(ROOT, "..", "..", "shared"))
     if os.path.isdir(d)), os.path.join(ROOT, "..", "shared"))
BENCH = os.path.join(SHARED, "benchmarks", "sv-comp")
PROPERTIES = ("unreach-call", "valid-memsafety", "valid-memcleanup", "no-overflow", "termination")


# Labels a native run contradicts: an answer against one counts as DISPUTED (no points, not wrong), and only
# when the answer's own witness is confirmed natively on this run.
DISPUTED = {
    "c/termination-bwb/not-02.yml": "labelled terminating, but x = y = 1 cycles (a,x,y) = (1,1,-2) -> "
                                    "(1,-2,-2) -> (-2,-2,1) -> (-2,1,1) -> (1,1,-2) natively",
}


def task_files():
    for d, _, files in os.walk(os.path.join(BENCH, "c")):
        for f in sorted(files):
            if f.endswith(".yml"):
                yield os.path.join(d, f)


def task_rows(path):
    """The rows of one task-definition file: one per property with an expected verdict."""
    with open(path) as f:
        t = yaml.safe_load(f)
    if str(t.get("format_version")) not in ("2.0", "1.1", "1.0"):
        raise ValueError("%s: format_version %r" % (path, t.get("format_version")))
    inputs = t["input_files"]
    inputs = [inputs] if isinstance(inputs, str) else inputs
    d = os.path.dirname(path)
    data_model = (t.get("options") or {}).get("data_model", "LP64")
    for p in t.get("properties", []):
        if "expected_verdict" not in p:
            continue
        yield {
            "task": os.path.relpath(path, BENCH),
            "task_file": path,
            "input": os.path.relpath(os.path.normpath(os.path.join(d, inputs[0])), BENCH),
            "property": os.path.splitext(os.path.basename(p["property_file"]))[0],
            "property_file": os.path.normpath(os.path.join(d, p["property_file"])),
            "expected": "true" if p["expected_verdict"] else "false",
            "subproperty": p.get("subproperty", "-"),
            "data_model": data_model,
        }


def rows(filt, data_model="", prop=""):
    for path in sorted(task_files()):
        for r in task_rows(path):
            if r["property"] in PROPERTIES and (not filt or filt in r["input"]) \
                    and (not data_model or r["data_model"] == data_model) \
                    and (not prop or r["property"] == prop):
                yield r


def run(symex, r, limit, outdir, confirm):
    task = os.path.join(BENCH, r["input"])
    # A termination FALSE's witness is GraphML's stem and cycle (YAML 2.0 has no form for it).
    termination = r["property"] == "termination"
    witness = os.path.join(outdir, "witness.graphml" if termination else "witness.yml")
    cmd = [symex, "check", "--property", r["property_file"], "--max-time", str(limit), "--json",
           "--out", outdir, "--witness", witness, r["task_file"]]
    os.makedirs(outdir, exist_ok=True)
    start = time.time()
    native = ""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=limit + 30)
        try:
            o = json.loads(p.stdout)["results"][0]
            verdict = o["verdict"].upper()
            if verdict == "FALSE" and o.get("subproperty"):
                verdict = "FALSE(%s)" % o["subproperty"]
        except (ValueError, KeyError, IndexError):
            verdict = "ERROR(%d)" % p.returncode
            o = {}
        if verdict == "FALSE" and termination and confirm:
            # check_witness.py feeds the stem's values to the native build, which must not end.
            native = check_witness(symex, task, witness, "nontermination")
        elif verdict.startswith("FALSE") and confirm:
            native = confirm_natively(symex, r, task, o.get("test"))
            native += "; " + validate(symex, r, witness)
            native += "; " + check_witness(symex, task, witness, o.get("kind"))
            if o.get("witness_error"):
                native += " (%s)" % o["witness_error"][:160]
        elif verdict == "TRUE" and confirm and not termination:
            native = check_correctness(task, witness)
    except subprocess.TimeoutExpired:
        verdict = "TIMEOUT"
    return verdict, time.time() - start, native


def confirm_natively(symex, r, task, test):
    """'agrees', or why the native replay of a FALSE's test does not confirm it.

    The native build reads uninitialised memory as zero; a test that gives it other values is not
    reproducible as it is, so it is replayed once more with those inputs zeroed (the same run the native
    build makes of the program): a violation reached that way is confirmed ("agrees, uninit as zero")."""
    if not test:
        return "no test"
    o = replay_natively(symex, r, task, test)
    if o is None:
        return "native replay failed"
    out = o.get("outcome") or {}
    if not o.get("agrees") and out.get("kind") == "not-reproducible":
        zeroed = uninit_as_zero(test)
        if zeroed:
            z = replay_natively(symex, r, task, zeroed)
            if z is not None and z.get("agrees"):
                return "agrees, uninit as zero"
    if o.get("agrees"):
        return "agrees"
    what = out.get("kind", "?") + (" %s" % out["code"] if out.get("code") is not None else "")
    if out.get("kind") == "not-reproducible":
        return "not reproducible"
    return "native: " + what


def check_correctness(task, witness):
    """scripts/check_invariants.py --no-native on a TRUE's correctness witness (its metadata, hash and
    each loop invariant placed at a loop keyword; the subset's input spaces are too large for the
    brute-force native check): 'correctness witness ok (N invariants)' or why not."""
    if not os.path.exists(witness):
        return "no correctness witness"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check_invariants.py"), witness,
                        task, "--no-native"], capture_output=True, text=True)
    if p.returncode != 0:
        return p.stdout.strip() or p.stderr.strip()[-200:]
    n = p.stdout.split()[1] if p.stdout.startswith("ok: ") else "?"
    return "correctness witness ok (%s invariants)" % n


def validate(symex, r, witness):
    """`symex validate` reading a FALSE's witness back: 'validated' when it confirms the violation, else its
    answer (the reader shares the guide with the explorer, not the writer's replay)."""
    if not os.path.exists(witness):
        return "no witness"
    cmd = [symex, "validate", "--witness", witness, "--property", r["property_file"], r["task_file"]]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return "validate: timeout"
    last = (p.stdout.strip().splitlines() or ["?"])[-1]
    return "validated" if p.returncode == 1 else "validate: %s (exit %d)" % (last, p.returncode)


def check_witness(symex, task, witness, kind):
    """scripts/check_witness.py on a FALSE's GraphML witness: 'witness agrees' when it is well-formed and
    its nondet values reproduce the violation on the native build, else why not."""
    if not os.path.exists(witness):
        return "no witness"
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "check_witness.py"), witness, task,
                        "--expect-kind", kind or "", "--symex", symex],
                       capture_output=True, text=True)
    return "witness agrees" if p.returncode == 0 else p.stdout.strip() or p.stderr.strip()[-200:]


def replay_natively(symex, r, task, test):
    """`symex replay --native --json` of one test: the JSON object, or None when the replay failed."""
    cmd = [symex, "replay", "--native", "--json", task, test]
    if r["data_model"] == "ILP32":
        cmd.append("--cflags=-m32")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        return json.loads(p.stdout)
    except (subprocess.TimeoutExpired, ValueError):
        return None


def uninit_as_zero(test):
    """A copy of the test file whose `uninit:*` inputs are all zero bytes (next to it), or None when it
    has no nonzero one."""
    try:
        with open(test) as f:
            t = json.load(f)
    except (OSError, ValueError):
        return None
    changed = False
    for i in t.get("inputs", []):
        if i.get("name", "").startswith("uninit:") and any(i.get("bytes", [])):
            i["bytes"] = [0] * len(i["bytes"])
            changed = True
    if not changed:
        return None
    path = os.path.splitext(test)[0] + ".uninit-zero.json"
    with open(path, "w") as f:
        json.dump(t, f)
    return path


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
    ap.add_argument("--property", default="", choices=("",) + PROPERTIES,
                    help="keep the rows of one property only")
    ap.add_argument("--symex", default=os.path.join(ROOT, "target", "release", "symex"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-native", action="store_true",
                    help="do not confirm FALSE answers by native replay")
    a = ap.parse_args()
    if not os.path.isdir(BENCH):
        print("skipped: %s is absent" % BENCH)
        return 0
    if not os.path.exists(a.symex):
        print("build symex first: cargo build --release -p symex-cli (or pass --symex)")
        return 2
    tasks = list(rows(a.filter, a.data_model, a.property))
    tmp = tempfile.mkdtemp(prefix="symex-svcomp-")
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run, a.symex, r, a.limit, os.path.join(tmp, str(i)), not a.no_native)
                for i, r in enumerate(tasks)]
        results = [f.result() for f in futs]
    total, counts = 0, {"correct true": 0, "correct false": 0, "wrong true": 0,
                        "wrong false": 0, "unknown": 0, "disputed": 0}
    print("%-62s %-16s %-14s %-22s %7s %5s  %s" % ("task", "property", "expected", "verdict", "time", "pts",
                                                 "native"))
    disagreements = 0
    for r, (verdict, secs, native) in zip(tasks, results):
        pts, what = score(r, verdict)
        if what == "WRONG" and r["task"] in DISPUTED and native == "witness agrees":
            pts, what = 0, "disputed"
            print("DISPUTED: %s on %s: %s" % (verdict, r["task"], DISPUTED[r["task"]]), file=sys.stderr)
        total += pts
        exp = r["expected"] + ("" if r["subproperty"] in ("", "-") else "(%s)" % r["subproperty"])
        if what == "correct":
            counts["correct " + r["expected"]] += 1
        elif what == "WRONG":
            counts["wrong " + ("true" if verdict == "TRUE" else "false")] += 1
        elif what == "disputed":
            counts["disputed"] += 1
        else:
            counts["unknown"] += 1
        if verdict == "TRUE":
            disagrees = native != "" and not native.startswith("correctness witness ok")
        else:
            disagrees = not (native in ("", "witness agrees") or (
                native.startswith("agrees") and "; validated; " in native
                and native.endswith("witness agrees")))
        disagreements += disagrees
        print("%-62s %-16s %-14s %-22s %6.1fs %5d  %s%s%s" % (
            r["task"], r["property"], exp, verdict, secs, pts, native,
            "  <-- WRONG" if what == "WRONG" else "  <-- DISPUTED LABEL" if what == "disputed" else "", "  <-- NOT CONFIRMED" if disagrees else ""))
    print()
    print("tasks: %d; %s" % (len(tasks), ", ".join("%s: %d" % kv for kv in counts.items())))
    print("score: %d (of %d possible)" % (total, sum(2 if r["expected"] == "true" else 1 for r in tasks)))
    if not a.no_native:
        falses = sum(1 for v, _, _ in results if v.startswith("FALSE"))
        print("FALSE answers confirmed by native replay: %d of %d" % (falses - disagreements, falses))
    return 1 if counts["wrong true"] or counts["wrong false"] or disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
