#!/usr/bin/env bash
# The paper's Figure 11: a client creates n cells, sets each, and asserts on the first.
# Prints, for each n and each of two Cells, the CPU time (user + system) and peak memory of
# `symex verify` (measured by /usr/bin/time), the CPU time and memory per cell, the solver
# queries, and the ratio of CPU time to the previous size's (linear growth: the ratio of the sizes).
# Speed is measured, never asserted: run it on an idle machine. Usage:
#   bash bench/idf-fig11.sh [n ...]        (default: 1000 10000 100000; the parser's bound of 500,000
#   statements per body refuses n > 250,000, which is printed as not run)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/release.sh
release_symex
[ -x /usr/bin/time ] || { echo "bench/idf-fig11.sh needs /usr/bin/time (Debian package time)"; exit 1; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000 100000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Two Cells: Figure 3's (a predicate and a pure method; the paper's Figure 11 asserts c1.getX() = 1) and
# Figure 2's (bare field chunks, asserting c1.x = 1).
run() {
  local variant=$1 source=$2 assertion=$3
  local cell prev=""
  cell=$(sed '/^main {/,$d' "$source")
  echo "Cell of $variant"
  printf "%8s %9s %9s %12s %12s %8s %7s\n" n cpu_s peak_MiB us_per_cell KiB_per_cell queries ratio
  for n in "${sizes[@]}"; do
    f="$dir/fig11_${variant// /_}_$n.idf"
    {
      echo "$cell"
      echo "main {"
      for ((i = 1; i <= n; i++)); do
        echo "  Cell c$i := new Cell();"
        echo "  c$i.setX($i);"
      done
      echo "  assert $assertion;"
      echo "}"
    } >"$f"
    # The parser bounds a body to 500,000 statements: beyond n = 250,000 the client is refused.
    if ! /usr/bin/time -f "%U %S %M" -o "$dir/time" "$symex" verify --json "$f" >"$dir/out" 2>"$dir/err"; then
      printf "%8d  not run: %s\n" "$n" "$(grep -m1 error: "$dir/err")"
      continue
    fi
    python3 - "$n" "$dir/time" "$dir/out" "$prev" <<'PY'
import json, sys
n = int(sys.argv[1])
user, system, kib = open(sys.argv[2]).read().split()[-3:]
cpu = float(user) + float(system)
d = json.load(open(sys.argv[3]))
assert d["verified"], "not verified"
prev = sys.argv[4]
ratio = "-" if not prev else "%.1f" % (cpu / max(float(prev), 1e-3))
print("%8d %9.2f %9.1f %12.1f %12.1f %8s %7s" % (n, cpu, int(kib) / 1024, cpu / n * 1e6, int(kib) / n, d["solver"]["queries"], ratio))
open(sys.argv[2] + ".cpu", "w").write(str(cpu))
PY
    prev=$(cat "$dir/time.cpu")
  done
}
run "Figure 3" examples/idf/cell_fig3.idf "c1.getX() = 1"
run "Figure 2" examples/idf/cell_fig2.idf "c1.x = 1"
