#!/usr/bin/env bash
# The paper's Figure 11: a client creates n cells, sets each, and asserts on the first.
# Prints, for each n and each of two Cells, the verification time (best of 3 runs, as measured by `symex verify --json`,
# process start-up excluded), the time per cell and the solver queries. Usage:
#   bash bench/idf-fig11.sh [n ...]        (default: 10 100 250 500 1000 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p symex-cli
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 100 250 500 1000 2000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# Two Cells: Figure 3's (a predicate and a pure method; the paper's Figure 11 asserts c1.getX() = 1) and
# Figure 2's (bare field chunks, asserting c1.x = 1).
run() {
  local variant=$1 source=$2 assertion=$3
  local cell
  cell=$(sed '/^main {/,$d' "$source")
  echo "Cell of $variant"
  printf "%6s %10s %12s %8s\n" n time_s us_per_cell queries
  for n in "${sizes[@]}"; do
    f="$dir/fig11_${variant}_$n.idf"
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
    best=""
    queries=""
    for _ in 1 2 3; do
      out=$(./target/release/symex verify --json "$f")
      t=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["verified"]; print(d["time_s"])')
      queries=$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["solver"]["queries"])')
      if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then best=$t; fi
    done
    python3 -c "print('%6d %10.3f %12.1f %8s' % ($n, $best, $best / $n * 1e6, '$queries'))"
  done
}
run "Figure 3" examples/idf/cell_fig3.idf "c1.getX() = 1"
run "Figure 2" examples/idf/cell_fig2.idf "c1.x = 1"
