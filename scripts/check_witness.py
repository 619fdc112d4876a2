#!/usr/bin/env python3
"""Checks an SV-COMP GraphML 1.0 violation witness without symex's writer: parses it with Python's XML
parser, checks the required graph data (witness-type, sourcecodelang, producer, specification,
programfile, programhash, architecture, creationtime), that programhash is the SHA-256 of the program,
that every startline is a line of the program, that one entry node leads along the edges to a violation
node, and — with --expect-kind — that the `__VERIFIER_nondet_*` values of its assumptions, fed in order to
the native build (`symex replay --native`: clang-14 with ASan/UBSan), reproduce that outcome.

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("witness")
    ap.add_argument("program")
    ap.add_argument("--expect-kind")
    ap.add_argument("--symex", default="symex")
    a = ap.parse_args()
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
    # The witness's one path: from the entry along the (single) successors to a violation node.
    path, node, seen = [], entries[0], set()
    while nodes[node].get("violation") != "true":
        if node in seen or len(succ.get(node, [])) != 1:
            fail("no single path from the entry to a violation node (at %s)" % node)
        seen.add(node)
        node, d = succ[node][0]
        path.append(d)
    values = []
    for d in path:
        if "assumption.resultfunction" in d:
            m = re.fullmatch(r"\s*\\result\s*==\s*(-?\d+)\s*;?\s*", d.get("assumption", ""))
            if not m:
                fail("assumption %r is not \\result == N" % d.get("assumption"))
            values.append((d["assumption.resultfunction"], int(m.group(1))))
    summary = "%d nondet values, %d edges" % (len(values), len(path))
    if a.expect_kind:
        inputs = []
        for fn, v in values:
            n, _ = width(fn, g["architecture"])
            inputs.append({"name": fn, "bytes": list((v % (1 << (8 * n))).to_bytes(n, "little"))})
        test = {"program": a.program, "entry": "main", "inputs": inputs,
                "outcome": {"kind": a.expect_kind}}
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump(test, f)
        cmd = [a.symex, "replay", "--native", "--json", a.program, f.name]
        if g["architecture"] == "32bit":
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
