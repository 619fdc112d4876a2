#!/usr/bin/env python3
"""Checks a BenchExec run of symex (bench/benchexec.sh): each run's result column is symex's own verdict,
the last line of that run's log (TRUE, FALSE, FALSE(sub), UNKNOWN, as BenchExec writes them: true,
false, false(sub), unknown), no result is wrong, and prints the score of BenchExec's own SV-COMP scoring
(`benchexec.result.Property.compute_score`, the function table-generator uses). Run it with the Python of
BenchExec's virtual environment.

usage: benchexec_check.py TABLE_DIR RESULTS.xml ...
"""
import os
import sys
import xml.etree.ElementTree as ET

try:
    import benchexec.result as bresult
except ImportError:
    bresult = None

VERDICTS = {"TRUE": "true", "FALSE": "false", "UNKNOWN": "unknown"}
# Labels a native run contradicts (scripts/svcomp.py's DISPUTED, with the evidence there): an answer against
# one is reported, not counted as wrong by this check; BenchExec's score below still counts it as wrong.
DISPUTED = {"not-02.yml": "termination"}


def expected_status(log):
    """What the tool-info module must make of symex's last line, read independently of it."""
    lines = [l.strip() for l in open(log, errors="replace") if l.strip()]
    last = lines[-1] if lines else ""
    if last.startswith("FALSE(") and last.endswith(")"):
        return "false" + last[len("FALSE"):]
    return VERDICTS.get(last, "ERROR")


def log_of(results_xml, root, run):
    base = results_xml[: -len(".xml")]
    # BenchExec's results file is NAME.results.RUNDEF[.SET].xml and its logs NAME.logfiles/RUNDEF.TASK.log
    stem = os.path.basename(base)
    name = stem[: stem.index(".results.")]
    folder = os.path.join(os.path.dirname(results_xml), name + ".logfiles")
    rundef = root.get("name", "").split(".")[0]
    return os.path.join(folder, "%s.%s.log" % (rundef, os.path.basename(run.get("name"))))


def main():
    files = [f for f in sys.argv[2:]]
    total, rows, mismatches, wrong, disputed = 0, 0, 0, 0, 0
    for f in files:
        root = ET.parse(f).getroot()
        for run in root.iter("run"):
            cols = {c.get("title"): c.get("value") for c in run.iter("column")}
            status, category = cols.get("status", ""), cols.get("category", "")
            log = log_of(f, root, run)
            want = expected_status(log) if os.path.exists(log) else "no log " + log
            # A run BenchExec ended at its limit has no verdict as its log's last line.
            agree = status == want or (status in ("TIMEOUT", "OUT OF MEMORY") and want == "ERROR")
            mismatches += not agree
            task = os.path.basename(run.get("name"))
            is_disputed = category == "wrong" and DISPUTED.get(task) == run.get("properties", "")
            disputed += is_disputed
            wrong += category == "wrong" and not is_disputed
            props = run.get("properties", "")
            pts = 0
            if bresult is not None and run.get("propertyFile"):
                # BenchExec writes paths relative to the results file's folder.
                prp = os.path.join(os.path.dirname(f), run.get("propertyFile"))
                prop = bresult.Property.create(os.path.normpath(prp))
                pts = prop.compute_score(category, status) or 0
            total += pts
            rows += 1
            print("%-70s %-16s %-24s %-10s %4s  %s" % (
                run.get("name"), props, status, category, pts,
                ("" if agree else "<-- symex said %s" % want) + ("  <-- DISPUTED LABEL" if is_disputed else "")))
    print()
    print("runs: %d; result column differs from symex's verdict: %d; wrong: %d; disputed labels: %d" % (
        rows, mismatches, wrong, disputed))
    if bresult is not None:
        print("score (BenchExec's SV-COMP scoring): %d" % total)
    return 1 if mismatches or wrong or rows == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
