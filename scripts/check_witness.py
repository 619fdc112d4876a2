#!/usr/bin/env python3
"""Checks an SV-COMP violation witness without symex's writer. A GraphML 1.0 witness: parses it with
Python's XML parser, checks the required graph data (witness-type, sourcecodelang, producer, specification,
programfile, programhash, architecture, creationtime), that programhash is the SHA-256 of the program,
that every startline is a line of the program, that one entry node leads along the edges to a violation
node (for `termination`, specification `LTL(F end)`: to a `cyclehead` node from which a cycle re-enters
it through an `enterLoopHead` edge on a line with a loop keyword), and — with --expect-kind — that the `__VERIFIER_nondet_*` values of its assumptions, fed in order to
the native build (`symex replay --native`: clang-14 with ASan/UBSan), reproduce that outcome (`--expect-kind nontermination`: the native run, timed without its build, does
not end within 5 s).
Its `control` edges (branch directions) are checked against a native coverage build of the program with
the witness's nondet values (clang-14 -fprofile-instr-generate, llvm-cov-14): per line, no more
condition-true (condition-false) edges than the native run's true (false) branch counts there.

A YAML 2.0 witness (`violation_sequence`): parses it with PyYAML, checks the metadata (format_version
2.0, uuid, creation_time, producer, task with input_files, input_file_hashes = the program's SHA-256,
specification, data_model, language), that every waypoint's line is a line of the program, that the last
segment's waypoint is the target, and takes the `function_return` values (`\result == N`) in order, the
nondet function being the `__VERIFIER_nondet_*` call the program text has at the waypoint's line and
column. Its `branching` waypoints must sit at an `if`, `while` or `for` keyword of the program text (line
and column) with the constraint `true` or `false`; their directions are checked against the native
coverage build as GraphML's `control` edges are.

usage: check_witness.py WITNESS PROGRAM [--expect-kind KIND --symex PATH]
prints "ok: ..." and exits 0, or names the first problem and exits 1.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://graphml.graphdrawing.org/xmlns}"
REQUIRED = ("witness-type", "sourcecodelang", "producer", "specification", "programfile",
            "programhash", "architecture", "creationtime")
# SV-COMP's types of the nondet functions: (bytes, signed); long, pointer and size_t by architecture.
WIDTHS = {"bool": (1, False), "_Bool": (1, False), "char": (1, True), "schar": (1, True),
          "uchar": (1, False), "short": (2, True), "ushort": (2, False), "int": (4, True),
          "uint": (4, False), "unsigned": (4, False), "longlong": (8, True), "ulonglong": (8, False)}


def fail(msg):
    print("witness rejected: " + msg)
    sys.exit(1)


def data(elem, keys):
    return {keys.get(d.get("key"), d.get("key")): (d.text or "") for d in elem.findall(NS + "data")}


def width(fn, arch):
    t = fn[len("__VERIFIER_nondet_"):]
    if t in WIDTHS:
        return WIDTHS[t]
    if t in ("long", "ulong", "pointer", "size_t"):
        return (4 if arch == "32bit" else 8, t == "long")
    fail("nondet function %s has no SV-COMP type" % fn)


def graphml(a):
    """The architecture, the (function, value) list, the (line, taken) branch directions and a summary
    of a GraphML witness, checked."""
    root = ET.parse(a.witness).getroot()
    if root.tag != NS + "graphml":
        fail("the root element is %s, not graphml" % root.tag)
    keys = {k.get("id"): k.get("attr.name") for k in root.findall(NS + "key")}
    graph = root.find(NS + "graph")
    if graph is None:
        fail("no graph")
    g = data(graph, keys)
    for k in REQUIRED:
        if not g.get(k):
            fail("no graph data " + k)
    if g["witness-type"] != "violation_witness":
        fail("witness-type is " + g["witness-type"])
    with open(a.program, "rb") as f:
        text = f.read()
    if g["programhash"].lower() != hashlib.sha256(text).hexdigest():
        fail("programhash is not the SHA-256 of " + a.program)
    nlines = text.count(b"\n") + (0 if text.endswith(b"\n") else 1)
    nodes = {n.get("id"): data(n, keys) for n in graph.findall(NS + "node")}
    entries = [i for i, d in nodes.items() if d.get("entry") == "true"]
    if len(entries) != 1:
        fail("%d entry nodes" % len(entries))
    succ = {}
    for e in graph.findall(NS + "edge"):
        d = data(e, keys)
        if e.get("source") not in nodes or e.get("target") not in nodes:
            fail("an edge between undeclared nodes")
        if "startline" in d and not 1 <= int(d["startline"]) <= nlines:
            fail("startline %s is not a line of the program (%d lines)" % (d["startline"], nlines))
        succ.setdefault(e.get("source"), []).append((e.get("target"), d))
    lines = text.decode("utf-8", "replace").splitlines()
    termination = "LTL(F end)" in g["specification"]
    goal = "cyclehead" if termination else "violation"
    # The witness's one path: from the entry along the (single) successors to the goal node.
    path, node, seen = [], entries[0], set()
    while nodes[node].get(goal) != "true":
        if node in seen or len(succ.get(node, [])) != 1:
            fail("no single path from the entry to a %s node (at %s)" % (goal, node))
        seen.add(node)
        node, d = succ[node][0]
        path.append(d)
    if termination:
        cycle_closes(node, succ, lines)
    values, controls = [], []
    for d in path:
        if d.get("control") in ("condition-true", "condition-false"):
            controls.append((int(d["startline"]), d["control"] == "condition-true"))
        elif "control" in d:
            fail("control %r is neither condition-true nor condition-false" % d["control"])
        if "assumption.resultfunction" in d:
            m = re.fullmatch(r"\s*\\result\s*==\s*(-?\d+)\s*;?\s*", d.get("assumption", ""))
            if not m:
                fail("assumption %r is not \\result == N" % d.get("assumption"))
            values.append((d["assumption.resultfunction"], int(m.group(1))))
    return g["architecture"], values, controls, "%d nondet values, %d branch directions, %d edges" % (
        len(values), len(controls), len(path))


def cycle_closes(head, succ, lines):
    """A cycle from the cycle head back to it whose re-entering edge is `enterLoopHead` at a loop's line."""
    todo, seen = [head], set()
    while todo:
        n = todo.pop()
        for target, d in succ.get(n, []):
            if target == head:
                if d.get("enterLoopHead") != "true":
                    fail("the edge back to the cycle head is not enterLoopHead")
                line = int(d.get("startline", "0"))
                if not 1 <= line <= len(lines) or not re.search(r"\b(while|for|do)\b", lines[line - 1]):
                    fail("the cycle head's line %d has no loop keyword" % line)
                return
            if target not in seen:
                seen.add(target)
                todo.append(target)
    fail("no cycle from the cycle head back to it")


def nondet_at(lines, line, column):
    """The __VERIFIER_nondet_* function called at (line, column) of the program text."""
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    calls = [(m.start() + 1, m.group(0)) for m in re.finditer(r"__VERIFIER_nondet_\w+", text)]
    at = [c for c in calls if c[0] == column] or (calls if len(calls) == 1 else [])
    if not at:
        fail("no single __VERIFIER_nondet_* call at line %d column %s" % (line, column))
    return at[0][1]


def yaml_witness(a):
    """The architecture, the (function, value) list, no branch directions and a summary of a YAML 2.0
    witness, checked."""
    import yaml
    with open(a.witness) as f:
        doc = yaml.safe_load(f)
    if not isinstance(doc, list):
        fail("a YAML witness is a list of entries")
    seqs = [e for e in doc if isinstance(e, dict) and e.get("entry_type") == "violation_sequence"]
    if len(seqs) != 1:
        fail("%d violation_sequence entries" % len(seqs))
    e = seqs[0]
    meta = e.get("metadata") or {}
    if str(meta.get("format_version")) != "2.0":
        fail("format_version is %r" % meta.get("format_version"))
    for k in ("uuid", "creation_time"):
        if not meta.get(k):
            fail("no metadata " + k)
    if not re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", str(meta["uuid"])):
        fail("uuid %r is not a UUID" % meta["uuid"])
    prod = meta.get("producer") or {}
    if not prod.get("name") or not prod.get("version"):
        fail("producer without name or version")
    task = meta.get("task") or {}
    for k in ("input_files", "input_file_hashes", "specification", "data_model", "language"):
        if not task.get(k):
            fail("no task " + k)
    with open(a.program, "rb") as f:
        text = f.read()
    digest = hashlib.sha256(text).hexdigest()
    if [h.lower() for h in task["input_file_hashes"].values()] != [digest]:
        fail("input_file_hashes is not the SHA-256 of " + a.program)
    if task["data_model"] not in ("ILP32", "LP64"):
        fail("data_model %r" % task["data_model"])
    lines = text.decode("utf-8", "replace").split("\n")
    segments = e.get("content") or []
    if not segments:
        fail("no segments")
    values, controls, last = [], [], None
    for seg in segments:
        wps = [w.get("waypoint") or {} for w in seg.get("segment") or []]
        follows = [w for w in wps if w.get("action") == "follow"]
        if len(follows) != 1:
            fail("a segment with %d follow waypoints" % len(follows))
        for w in wps:
            loc = w.get("location") or {}
            if not isinstance(loc.get("line"), int) or not 1 <= loc["line"] <= len(lines):
                fail("waypoint line %r is not a line of the program" % loc.get("line"))
        w = follows[0]
        last = w
        if w.get("type") == "function_return":
            c = (w.get("constraint") or {}).get("value", "")
            m = re.fullmatch(r"\s*\\result\s*==\s*(-?\d+)\s*;?\s*", c)
            if not m:
                fail("constraint %r is not \\result == N" % c)
            loc = w["location"]
            values.append((nondet_at(lines, loc["line"], loc.get("column")), int(m.group(1))))
        elif w.get("type") == "branching":
            controls.append((w["location"]["line"], branching_at(lines, w)))
    if last.get("type") != "target":
        fail("the last segment does not end at the target")
    arch = "32bit" if task["data_model"] == "ILP32" else "64bit"
    return arch, values, controls, "%d nondet values, %d segments" % (len(values), len(segments))


def branching_at(lines, w):
    """The direction of a `branching` waypoint, which must be located at a branching keyword."""
    loc = w["location"]
    col = loc.get("column")
    text = lines[loc["line"] - 1]
    if not isinstance(col, int) or not re.match(r"(if|while|for)\b", text[col - 1:]) \
            or (col > 1 and re.match(r"\w", text[col - 2])):
        fail("branching waypoint at %d:%r is not at an if/while/for keyword" % (loc["line"], col))
    v = str((w.get("constraint") or {}).get("value", "")).strip().lower()
    if v not in ("true", "false"):
        fail("branching constraint %r is neither true nor false" % v)
    return v == "true"


HARNESS = r"""
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef COVERAGE
int __llvm_profile_write_file(void);
#else
static int __llvm_profile_write_file(void) { return 0; }
#endif
static const long long values[] = { %(values)s 0 };
static int next_value;
static long long take(void) { return next_value < %(n)d ? values[next_value++] : 0; }
%(functions)s
static void written(int sig) { (void)sig; __llvm_profile_write_file(); _exit(0); }
/* SV-COMP's other functions, where the program does not define them. */
__attribute__((weak)) void __VERIFIER_error(void) { abort(); }
__attribute__((weak)) void __VERIFIER_assume(int c) { if (!c) written(0); }
__attribute__((weak)) void __VERIFIER_atomic_begin(void) {}
__attribute__((weak)) void __VERIFIER_atomic_end(void) {}
#ifndef NO_ARM
static char alt[1 << 16];
__attribute__((constructor)) static void arm(void) {
  /* An own stack for the handler: a run may end in a stack overflow. */
  stack_t st = { .ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0 };
  sigaltstack(&st, 0);
  int s[] = { SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM };
  for (unsigned i = 0; i < sizeof s / sizeof *s; i++) {
    struct sigaction sa = { .sa_handler = written, .sa_flags = SA_ONSTACK };
    sigaction(s[i], &sa, 0);
  }
  alarm(5);
}
#endif
"""
CTYPES = {"bool": "_Bool", "_Bool": "_Bool", "char": "char", "schar": "signed char",
          "uchar": "unsigned char", "short": "short", "ushort": "unsigned short", "int": "int",
          "uint": "unsigned", "unsigned": "unsigned", "long": "long", "ulong": "unsigned long",
          "longlong": "long long", "ulonglong": "unsigned long long", "size_t": "unsigned long",
          "pointer": "void *"}


def write_harness(program, values, d):
    """A C file in `d` giving the program's `__VERIFIER_nondet_*` calls the witness's values in order
    (then 0); returns its path."""
    src = open(program, encoding="utf-8", errors="replace").read()
    used = sorted(set(re.findall(r"__VERIFIER_nondet_(\w+)\s*\(", src)))
    defs = "".join("%s __VERIFIER_nondet_%s(void) { return (%s)take(); }\n" % (CTYPES[t], t, CTYPES[t])
                   for t in used if t in CTYPES)
    h = os.path.join(d, "harness.c")
    with open(h, "w") as f:
        f.write(HARNESS % {"values": "".join("%dLL, " % v for _, v in values), "n": len(values),
                           "functions": defs})
    return h


RUNS_FOR = 5


def native_runs_forever(a, values, arch):
    """Whether the native build (clang-14, ASan/UBSan) given the witness's values runs RUNS_FOR
    seconds without ending. Only the run is timed, not the build: a run that ends does so in far less
    time however loaded the machine is, and one that loops never ends."""
    with tempfile.TemporaryDirectory() as d:
        h = write_harness(a.program, values, d)
        exe = os.path.join(d, "a.out")
        m32 = ["-m32"] if arch == "32bit" else []
        build = subprocess.run(["clang-14", "-O0", "-w", "-DNO_ARM", *m32,
                                "-fsanitize=address,undefined", a.program, h, "-o", exe],
                               capture_output=True, text=True)
        if build.returncode != 0:
            fail("the native build failed (clang-14): " + build.stderr.strip()[-400:])
        try:
            r = subprocess.run([exe], capture_output=True, text=True, timeout=RUNS_FOR)
        except subprocess.TimeoutExpired:
            return
        fail("the native build ends (exit status %d): %s" % (r.returncode, r.stderr.strip()[-300:]))


def native_branch_counts(a, values, arch):
    """Per line, the (true, false) counts of the native run's branch regions (llvm-cov of a clang-14
    build with the witness's nondet values; the run's profile is written at any exit, signal or 5 s)."""
    with tempfile.TemporaryDirectory() as d:
        h = write_harness(a.program, values, d)
        exe, raw, prof = (os.path.join(d, x) for x in ("a.out", "run.profraw", "run.profdata"))
        m32 = ["-m32"] if arch == "32bit" else []
        if reads_uninitialised(a.program, h, d):
            return None
        cov = ["-fprofile-instr-generate", "-fcoverage-mapping", "-DCOVERAGE"]
        build = subprocess.run(["clang-14", "-O0", "-w", *m32, *cov, a.program, h, "-o", exe],
                               capture_output=True, text=True)
        if build.returncode != 0:
            fail("the coverage build failed: " + build.stderr.strip()[-400:])
        subprocess.run([exe], env=dict(os.environ, LLVM_PROFILE_FILE=raw), capture_output=True,
                       timeout=60)
        if not os.path.exists(raw):
            fail("the native run wrote no profile")
        subprocess.run(["llvm-profdata-14", "merge", "-o", prof, raw], check=True)
        out = subprocess.run(["llvm-cov-14", "export", "-format=text", "-instr-profile", prof, exe],
                              capture_output=True, text=True, check=True)
    counts = {}
    for fn in json.loads(out.stdout)["data"][0]["functions"]:
        for b in fn.get("branches", []):
            if os.path.realpath(fn["filenames"][b[6]]) != os.path.realpath(a.program):
                continue
            t, f = counts.get(b[0], (0, 0))
            counts[b[0]] = (t + b[4], f + b[5])
    return counts


def reads_uninitialised(program, harness, d):
    """Whether the run branches on or passes on memory no one initialised (a MemorySanitizer build;
    x86-64 only, so a 32-bit task is asked on x86-64 too): its path then depends on values the witness
    does not give."""
    exe = os.path.join(d, "msan.out")
    b = subprocess.run(["clang-14", "-O0", "-w", "-fsanitize=memory", program, harness, "-o", exe],
                       capture_output=True, text=True)
    if b.returncode != 0:
        return False
    try:
        r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False
    return "use-of-uninitialized-value" in r.stderr


def check_branches(a, values, controls, arch):
    """Every branch direction the witness gives is one the native run took at that line: per line, the
    witness's condition-true (-false) edges are at most the native true (false) counts there (the
    witness leaves out operands of && and || in value context, so it may give fewer)."""
    counts = native_branch_counts(a, values, arch)
    if counts is None:
        return ("; branch directions not checked: the native run reads uninitialised memory "
                "(MemorySanitizer), whose values the witness does not give")
    wanted = {}
    for line, taken in controls:
        t, f = wanted.get(line, (0, 0))
        wanted[line] = (t + taken, f + (not taken))
    for line, (t, f) in sorted(wanted.items()):
        nt, nf = counts.get(line, (0, 0))
        if t > nt or f > nf:
            fail("line %d: the witness takes %d true and %d false branches, the native run %d and %d"
                 % (line, t, f, nt, nf))
    return "; %d branch directions agree with the native run's branch counts" % len(controls)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("witness")
    ap.add_argument("program")
    ap.add_argument("--expect-kind")
    ap.add_argument("--symex", default="symex")
    a = ap.parse_args()
    with open(a.witness, "rb") as f:
        is_xml = f.read(64).lstrip().startswith(b"<")
    arch, values, controls, summary = graphml(a) if is_xml else yaml_witness(a)
    if controls:
        summary += check_branches(a, values, controls, arch)
    if a.expect_kind == "nontermination":
        native_runs_forever(a, values, arch)
        summary += "; the native build runs %d s without ending" % RUNS_FOR
    elif a.expect_kind:
        inputs = []
        for fn, v in values:
            n, _ = width(fn, arch)
            inputs.append({"name": fn, "bytes": list((v % (1 << (8 * n))).to_bytes(n, "little"))})
        test = {"program": a.program, "entry": "main", "inputs": inputs,
                "outcome": {"kind": a.expect_kind}}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(test, f)
        cmd = [a.symex, "replay", "--native", "--json", a.program, f.name]
        if arch == "32bit":
            cmd.append("--cflags=-m32")
        p = subprocess.run(cmd, capture_output=True, text=True)
        os.unlink(f.name)
        try:
            o = json.loads(p.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            fail("native replay failed: " + p.stderr.strip())
        if not o.get("agrees"):
            fail("the native build does not reproduce %s: %s" % (a.expect_kind, o.get("outcome")))
        summary += "; the native build reproduces " + a.expect_kind
    print("ok: " + summary)


if __name__ == "__main__":
    main()
