#!/usr/bin/env python3
"""Checks an SV-COMP correctness witness (YAML 2.0 `invariant_set`) without symex: parses it with PyYAML,
checks the metadata (format_version 2.0, uuid, creation_time, producer, task with input_files,
input_file_hashes = the program's SHA-256, specification, data_model, language), that every
`loop_invariant`'s location is a `while` or `for` keyword of the program (line, 1-based column) in the
named function, and then that every invariant holds natively: the program is rewritten so that each
loop's condition first evaluates its invariant (`while (inv(I) && (C))`, `for (A; inv(I) && (C); B)`:
the invariant is checked each time control reaches the loop head), compiled with clang-14 under
ASan/UBSan, and run on every value of its `__VERIFIER_nondet_*` inputs (brute force; only programs whose
input space is small enough: at most 2^17 combinations).

usage: check_invariants.py WITNESS PROGRAM [--no-native] [--min-invariants N]
prints "ok: ..." and exits 0, or names the first problem and exits 1.
"""
import argparse
import hashlib
import itertools
import os
import re
import subprocess
import sys
import tempfile

# (bits, signed) of the nondet functions whose whole range is enumerated.
SMALL = {"bool": (1, False), "_Bool": (1, False), "char": (8, True), "schar": (8, True),
         "uchar": (8, False), "short": (16, True), "ushort": (16, False)}
C_TYPES = {"bool": "_Bool", "_Bool": "_Bool", "char": "char", "schar": "signed char",
           "uchar": "unsigned char", "short": "short", "ushort": "unsigned short"}
MAX_INPUTS = 1 << 17


def fail(msg):
    print("witness rejected: " + msg)
    sys.exit(1)


def check_metadata(entry, program):
    md = entry.get("metadata") or fail("no metadata")
    if str(md.get("format_version")) != "2.0":
        fail("format_version is %r, not 2.0" % md.get("format_version"))
    for k in ("uuid", "creation_time", "producer", "task"):
        if k not in md:
            fail("metadata has no %s" % k)
    task = md["task"]
    for k in ("input_files", "input_file_hashes", "specification", "data_model", "language"):
        if k not in task:
            fail("task has no %s" % k)
    digest = hashlib.sha256(open(program, "rb").read()).hexdigest()
    if digest not in task["input_file_hashes"].values():
        fail("no input_file_hashes entry is the program's SHA-256 %s" % digest)
    if task["data_model"] not in ("ILP32", "LP64"):
        fail("data_model %r" % task["data_model"])


def loop_keyword(text_line, column):
    """The keyword (while/for) starting at the 1-based column, or None."""
    rest = text_line[column - 1:]
    m = re.match(r"(while|for)\b", rest)
    before = text_line[column - 2] if column >= 2 else " "
    if m and not (before.isalnum() or before == "_"):
        return m.group(1)
    return None


def check_locations(entry, lines, program_text):
    invs = []
    for item in entry.get("content") or []:
        inv = item.get("invariant") or fail("a content item is not an invariant: %r" % item)
        if inv.get("type") != "loop_invariant":
            fail("invariant type %r" % inv.get("type"))
        if inv.get("format") != "c_expression":
            fail("invariant format %r" % inv.get("format"))
        loc = inv.get("location") or fail("an invariant has no location")
        for k in ("file_name", "line", "column", "function"):
            if k not in loc:
                fail("a location has no %s" % k)
        line, col = int(loc["line"]), int(loc["column"])
        if not 1 <= line <= len(lines):
            fail("line %d is not a line of the program" % line)
        kw = loop_keyword(lines[line - 1], col)
        if kw is None:
            fail("line %d column %d is not a while/for keyword: %r" % (line, col, lines[line - 1]))
        if not re.search(r"\b%s\s*\(" % re.escape(loc["function"]), program_text):
            fail("no function %s in the program" % loc["function"])
        invs.append((line, col, kw, str(inv["value"])))
    return invs


def matching(text, open_at):
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    fail("unbalanced parentheses after offset %d" % open_at)


def instrument(lines, invs):
    """The program with each loop condition preceded by its invariant's check."""
    by_line = {}
    for line, col, kw, value in invs:
        by_line.setdefault((line, col, kw), []).append(value)
    offsets = [0]
    for l in lines:
        offsets.append(offsets[-1] + len(l) + 1)
    text = "\n".join(lines) + "\n"
    # Rewrite from the end so earlier offsets stay valid.
    for (line, col, kw), values in sorted(by_line.items(), reverse=True):
        at = offsets[line - 1] + col - 1 + len(kw)
        open_at = text.index("(", at)
        close_at = matching(text, open_at)
        check = "__symex_inv(%s)" % " && ".join("(%s)" % v for v in values)
        inner = text[open_at + 1:close_at]
        if kw == "while":
            new = "%s && (%s)" % (check, inner)
        else:
            parts = split_top(inner)
            if len(parts) != 3:
                fail("line %d: a for header without two ';'" % line)
            cond = parts[1].strip() or "1"
            new = "%s; %s && (%s); %s" % (parts[0], check, cond, parts[2])
        text = text[:open_at + 1] + new + text[close_at:]
    return "int __symex_inv(int);\n" + text


def split_top(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == ";" and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    return parts


def native_check(program_text, lines, invs, workdir):
    calls = re.findall(r"__VERIFIER_nondet_(\w+)\s*\(\s*\)", program_text)
    for t in calls:
        if t not in SMALL:
            fail("__VERIFIER_nondet_%s: its range is too large to enumerate" % t)
    domains = []
    for t in calls:
        bits, signed = SMALL[t]
        lo = -(1 << (bits - 1)) if signed else 0
        domains.append(range(lo, lo + (1 << bits)))
    total = 1
    for d in domains:
        total *= len(d)
    if total > MAX_INPUTS:
        fail("%d input combinations: too many to enumerate" % total)
    src = os.path.join(workdir, "instrumented.c")
    open(src, "w").write(instrument(lines, invs))
    defines_reach_error = re.search(r"\breach_error\s*\([^)]*\)\s*\{", program_text) is not None
    driver = ["#include <stdio.h>", "#include <stdlib.h>",
              "int symex_original_main(void);",
              "static long long vals[%d]; static int next, nvals = %d;" % (max(len(calls), 1), len(calls)),
              "static long long take(void) { if (next >= nvals) { fprintf(stderr, \"more nondet calls than call sites\\n\"); abort(); } return vals[next++]; }",
              "int __symex_inv(int ok) { if (!ok) { fprintf(stderr, \"invariant violated\\n\"); abort(); } return 1; }"]
    for t in sorted(set(calls)):
        driver.append("%s __VERIFIER_nondet_%s(void) { return (%s)take(); }" % (C_TYPES[t], t, C_TYPES[t]))
    if not defines_reach_error:
        driver.append("void reach_error(void) { fprintf(stderr, \"reach_error\\n\"); abort(); }")
    driver.append("int main(void) {")
    loops = ""
    for i, d in enumerate(domains):
        loops += "for (long long v%d = %d; v%d < %d; v%d++) " % (i, d.start, i, d.stop, i)
    body = " ".join("vals[%d] = v%d;" % (i, i) for i in range(len(domains)))
    driver.append("  %s{ %s next = 0; symex_original_main(); }" % (loops, body))
    driver.append("  return 0;\n}")
    drv = os.path.join(workdir, "driver.c")
    open(drv, "w").write("\n".join(driver) + "\n")
    exe = os.path.join(workdir, "a.out")
    # `-Dmain=` must not rename the driver's own main: the two are compiled separately.
    r = subprocess.run(["clang-14", "-g", "-O0", "-fsanitize=address,undefined",
                        "-fno-sanitize-recover=all", "-w", "-Dmain=symex_original_main", "-c", src,
                        "-o", exe + ".prog.o"], capture_output=True, text=True)
    if r.returncode != 0:
        fail("the instrumented program does not compile (clang-14): %s" % r.stderr[-2000:])
    r = subprocess.run(["clang-14", "-g", "-O0", "-fsanitize=address,undefined",
                        "-fno-sanitize-recover=all", "-w", drv, exe + ".prog.o", "-o", exe],
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("the driver does not build (clang-14): %s" % r.stderr[-2000:])
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
    r = subprocess.run([exe], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        fail("a native run failed (exit %d): %s" % (r.returncode, (r.stderr or r.stdout)[-2000:]))
    return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("witness")
    ap.add_argument("program")
    ap.add_argument("--no-native", action="store_true")
    ap.add_argument("--min-invariants", type=int, default=0)
    a = ap.parse_args()
    import yaml
    doc = yaml.safe_load(open(a.witness))
    if not isinstance(doc, list) or len(doc) != 1:
        fail("the file is not a list of one entry")
    entry = doc[0]
    if entry.get("entry_type") != "invariant_set":
        fail("entry_type %r, not invariant_set" % entry.get("entry_type"))
    check_metadata(entry, a.program)
    program_text = open(a.program).read()
    lines = program_text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    invs = check_locations(entry, lines, program_text)
    if len(invs) < a.min_invariants:
        fail("%d invariants, fewer than %d" % (len(invs), a.min_invariants))
    if a.no_native or not invs:
        print("ok: %d invariants well placed" % len(invs))
        return
    with tempfile.TemporaryDirectory() as d:
        total = native_check(program_text, lines, invs, d)
    print("ok: %d invariants hold at their loop heads on all %d inputs natively" % (len(invs), total))


if __name__ == "__main__":
    main()
