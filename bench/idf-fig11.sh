#!/usr/bin/env bash
# The paper's Figure 11: a client creates n cells, sets each, and asserts on the first.
# Prints, for each n, the verification time (best of 3 runs, as measured by `symex verify --json`,
# process start-up excluded), the time per cell and the solver queries. Usage:
#   bash bench/idf-fig11.sh [n ...]        (default: 10 100 250 500 1000 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p symex-cli
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10 100 250 500 1000 2000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The Cell of Figure 3 (examples/idf/cell_fig3.idf without its main), verified with inference.
cell=$(sed '/^main {/,$d' examples/idf/cell_fig3.idf)
printf "%6s %10s %12s %8s\n" n time_s us_per_cell queries
for n in "${sizes[@]}"; do
  f="$dir/fig11_$n.idf"
  {
    echo "$cell"
    echo "main {"
    for ((i = 1; i <= n; i++)); do
      echo "  Cell c$i := new Cell();"
      echo "  c$i.setX($i);"
    done
    echo "  assert c1.getX() = 1;"
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
