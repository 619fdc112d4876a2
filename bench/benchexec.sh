#!/usr/bin/env bash
# Runs symex through BenchExec (PyPI's benchexec, installed with pip into a virtual environment) on a few
# SV-COMP tasks with the tool-info module contrib/benchexec/symex.py and the benchmark definition
# contrib/benchexec/symex-svcomp.xml, then checks with bench/benchexec_check.py that BenchExec's result
# column is symex's own verdict (the last line of each run's log) and that no answer is wrong, and prints
# the score BenchExec's table-generator computes. Skips with a message where BenchExec cannot be installed
# or the benchmarks are absent.
#
# usage: bench/benchexec.sh [TIMELIMIT_SECONDS] [TASK_SET ...]   (default: 60, the three Few-* sets)
#        SYMEX=path/to/symex overrides target/debug/symex; SYMEX_VENV the virtual environment's folder.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED=""
for d in "$ROOT/../shared" "$ROOT/../../shared"; do
    [ -d "$d/benchmarks/sv-comp" ] && SHARED="$(cd "$d" && pwd)" && break
done
if [ -z "$SHARED" ]; then
    echo "skipped: ../shared/benchmarks/sv-comp is absent"
    exit 0
fi
SYMEX="${SYMEX:-$ROOT/target/debug/symex}"
[ -x "$SYMEX" ] || { echo "build symex first (cargo build -p symex-cli) or set SYMEX"; exit 2; }
LIMIT="${1:-60}"
shift || true
SETS=("$@")
[ ${#SETS[@]} -gt 0 ] || SETS=(Few-ReachSafety Few-MemSafety Few-NoOverflows)

VENV="${SYMEX_VENV:-$ROOT/target/benchexec-venv}"
if [ ! -x "$VENV/bin/benchexec" ]; then
    if ! python3 -m venv "$VENV" >/dev/null 2>&1 || ! "$VENV/bin/pip" install -q benchexec >/dev/null 2>&1; then
        echo "skipped: cannot install benchexec with pip into $VENV"
        exit 0
    fi
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/symex-benchexec.XXXXXX")"
cp "$ROOT/contrib/benchexec/symex-svcomp.xml" "$WORK/"
# The benchmarks as BenchExec reads them: a tree of links to the task files, whose properties folder also
# holds the Test-Comp coverage specifications the task files name (the subset leaves them out, and
# BenchExec refuses a task file whose property file is missing; no run here uses them).
SV="$SHARED/benchmarks/sv-comp/c"
for d in "$SV"/*/; do
    cat="$(basename "$d")"
    mkdir -p "$WORK/sv-comp/c/$cat"
    for f in "$d"*; do ln -s "$f" "$WORK/sv-comp/c/$cat/"; done
done
P="$WORK/sv-comp/c/properties"
echo 'COVER( init(main()), FQL(COVER EDGES(@DECISIONEDGE)) )' > "$P/coverage-branches.prp"
echo 'COVER( init(main()), FQL(COVER EDGES(@CONDITIONEDGE)) )' > "$P/coverage-conditions.prp"
echo 'COVER( init(main()), FQL(COVER EDGES(@BASICBLOCKENTRY)) )' > "$P/coverage-statements.prp"
echo 'COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )' > "$P/coverage-error-call.prp"
mkdir -p "$WORK/bin"
ln -s "$(cd "$(dirname "$SYMEX")" && pwd)/$(basename "$SYMEX")" "$WORK/bin/symex"
cd "$WORK"
# One run at a time on one core: the machines are shared (the limits are the run's, not the competition's
# 15 min; pass a larger TIMELIMIT to get closer to them). One BenchExec invocation per task set: within one,
# BenchExec names a run's log RUNDEF.TASK.log, so a task in two sets (one per property) would overwrite
# the log the check below reads.
for s in "${SETS[@]}"; do
    if ! PATH="$WORK/bin:$PATH" PYTHONPATH="$ROOT" "$VENV/bin/benchexec" \
            --no-container --timelimit "$LIMIT" --memorylimit 4GB --limitCores 1 --numOfThreads 1 \
            --no-compress-results -o "$WORK/results/$s/" --tasks "$s" symex-svcomp.xml >> "$WORK/benchexec.log" 2>&1; then
        if grep -qiE "cgroup|permission|container" "$WORK/benchexec.log"; then
            echo "skipped: benchexec cannot run here:"; tail -5 "$WORK/benchexec.log"
            exit 0
        fi
        cat "$WORK/benchexec.log"; exit 1
    fi
done
results=()
for s in "${SETS[@]}"; do
    # The set's own results file, or the run definition's when BenchExec wrote only that one.
    f=("$WORK/results/$s"/*.results.SV-COMP."$s".xml)
    [ -e "${f[0]}" ] || f=("$WORK/results/$s"/*.results.SV-COMP.xml)
    results+=("${f[0]}")
done
"$VENV/bin/table-generator" --no-diff -o "$WORK/table" "${results[@]}" > "$WORK/table.log" 2>&1 \
    || { cat "$WORK/table.log"; exit 1; }
"$VENV/bin/table-generator" --format csv -o "$WORK/table" "${results[@]}" >> "$WORK/table.log" 2>&1 || true
echo "results: $WORK/results; table: $(ls "$WORK"/table/*.html | head -1)"
grep -A12 "^Statistics:" "$WORK/benchexec.log" || true
"$VENV/bin/python" "$ROOT/bench/benchexec_check.py" "$WORK/table" "${results[@]}"
