#!/usr/bin/env bash
# A linked list of n nodes built with explicit `close`s of a recursive predicate
# (`valid() = acc(v) * acc(next) * (next != null ? next.valid() : true)`): every node's snapshot
# nests the snapshots of all nodes after it. Prints, for each n, the CPU time (user + system) and
# peak memory of `symex verify` (/usr/bin/time), the solver queries, and the ratio of CPU time to
# the previous size's (linear growth: the ratio of the sizes). Speed is measured, never asserted.
# Usage: bash bench/idf-list.sh [n ...]        (default: 100 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/release.sh
release_symex
[ -x /usr/bin/time ] || { echo "bench/idf-list.sh needs /usr/bin/time (Debian package time)"; exit 1; }
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100 1000 10000)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
printf "%8s %9s %9s %12s %8s %7s\n" n cpu_s peak_MiB us_per_node queries ratio
prev=""
for n in "${sizes[@]}"; do
  f="$dir/list_$n.idf"
  {
    echo "class Node {"
    echo "  int v; Node next;"
    echo "  predicate valid() { return acc(v) * acc(next) * (next != null ? next.valid() : true); }"
    echo "}"
    echo "main {"
    echo "  Node n0 := new Node; n0.v := 0; close n0.valid();"
    for ((i = 1; i < n; i++)); do
      echo "  Node n$i := new Node; n$i.v := $i; n$i.next := n$((i - 1)); close n$i.valid();"
    done
    echo "  open n$((n - 1)).valid();"
    echo "  assert n$((n - 1)).v = $((n - 1));"
    echo "}"
  } >"$f"
  /usr/bin/time -f "%U %S %M" -o "$dir/time" "$symex" verify --json "$f" >"$dir/out"
  python3 - "$n" "$dir/time" "$dir/out" "$prev" <<'PY'
import json, sys
n = int(sys.argv[1])
user, system, kib = open(sys.argv[2]).read().split()[-3:]
cpu = float(user) + float(system)
d = json.load(open(sys.argv[3]))
assert d["verified"], "not verified"
prev = sys.argv[4]
ratio = "-" if not prev else "%.1f" % (cpu / max(float(prev), 1e-3))
print("%8d %9.2f %9.1f %12.1f %8s %7s" % (n, cpu, int(kib) / 1024, cpu / n * 1e6, d["solver"]["queries"], ratio))
open(sys.argv[2] + ".cpu", "w").write(str(cpu))
PY
  prev=$(cat "$dir/time.cpu")
done
