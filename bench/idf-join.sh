#!/usr/bin/env bash
# The paper's §6.1: n independent ifs make 2^n paths; one `join` in the middle leaves
# 2^(n/2) paths to the join plus 2^(n/2) after it. Prints, for each n, the paths verified to the
# postcondition and the verification time (best of 3, from `symex verify --json`), without
# and with the join. Usage: bash bench/idf-join.sh [n ...]   (default: 4 8 10 12; n even)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/release.sh
release_symex
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(4 8 10 12)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

program() { # n with_join
  local n=$1 join=$2 half=$(($1 / 2))
  local params=""
  for ((i = 1; i <= n; i++)); do params+="${params:+, }int x$i"; done
  echo "class Flags {"
  echo "  int count;"
  echo "  void m($params)"
  echo "    requires acc(count) * count = 0;"
  echo "    ensures acc(count) * 0 <= count <= $n;"
  echo "  {"
  for ((i = 1; i <= n; i++)); do
    echo "    if (x$i = 0) { count := count + 1; }"
    if [ "$join" = 1 ] && [ $i = $half ]; then echo "    join acc(count) * 0 <= count <= $half;"; fi
  done
  echo "  }"
  echo "}"
}

measure() { # file -> "paths time"
  local best="" paths=""
  for _ in 1 2 3; do
    out=$("$symex" verify --json "$1")
    read -r ok p t < <(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["verified"], d["paths"], d["time_s"])')
    [ "$ok" = True ] || { echo "not verified: $1" >&2; exit 1; }
    paths=$p
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if $t < $best else 1)"; then best=$t; fi
  done
  echo "$paths $best"
}

printf "%4s %12s %10s %12s %10s\n" n paths time_s paths_join time_join
for n in "${sizes[@]}"; do
  program "$n" 0 >"$dir/plain_$n.idf"
  program "$n" 1 >"$dir/join_$n.idf"
  read -r p1 t1 < <(measure "$dir/plain_$n.idf")
  read -r p2 t2 < <(measure "$dir/join_$n.idf")
  printf "%4d %12d %10.3f %12d %10.3f\n" "$n" "$p1" "$t1" "$p2" "$t2"
done
