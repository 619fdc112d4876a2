#!/usr/bin/env bash
# Exploration speed against KLEE: runs `symex run` (default options, as ../shared/bench/README.md asks) on
# the three benchmark programs and prints the paths explored, the seconds taken, and the ratio to KLEE's
# wall time on this machine kind (the target is the same paths in at most half of KLEE's time).
# usage: bench/explore.sh [MAX_SECONDS]   (a budget per program; without it, no limit)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/shared.sh
require_shared bench
source bench/release.sh
release_symex
limit=()
[ $# -ge 1 ] && limit=(--max-time "$1")
printf '%-12s %10s %10s %9s %9s %8s %s\n' program paths klee_paths seconds klee_s ratio complete
# program, KLEE's paths, KLEE's seconds (../shared/bench/README.md)
for row in "psort 720 38.4" "parray 128 3.4" "ptokens 177156 186"; do
    set -- $row
    out=$(mktemp -d)
    start=$(date +%s.%N)
    "$symex" run "$shared/bench/$1.c" --quiet --json --out "$out/o" "${limit[@]}" >"$out/r.json" || true
    end=$(date +%s.%N)
    python3 - "$out/r.json" "$1" "$2" "$3" "$start" "$end" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
p = r["paths"]
paths = p["completed"] + p["errors"]
secs = float(sys.argv[6]) - float(sys.argv[5])
print("%-12s %10d %10s %9.1f %9s %8.2f %s" % (sys.argv[2], paths, sys.argv[3], secs, sys.argv[4],
      secs / float(sys.argv[4]), r["complete"]))
PY
    rm -rf "$out"
done
