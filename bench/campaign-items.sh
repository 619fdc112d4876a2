#!/usr/bin/env bash
# Items a campaign hands out, against the paths it explores: WORKERS `symex run` workers on one program
# over a local redis-server (started on a free port, removed at the end), ROUNDS times; prints each
# round's items, paths and wall seconds. A campaign that puts one state in each item pays a stream
# entry and a rebuild from its root per item; batched items keep the count near the number of gifts.
#   bench/campaign-items.sh [PROGRAM] [WORKERS] [ROUNDS]   (default examples/campaign/bits.c 3 3)
# SYMEX selects the binary (default: the release build, see bench/release.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/bench/release.sh"
release_symex
prog="${1:-$root/examples/campaign/bits.c}"
workers="${2:-3}"
rounds="${3:-3}"
command -v redis-server >/dev/null || { echo "redis-server not found (apt-get install redis-server)" >&2; exit 2; }
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
redis-server --port "$port" --save "" --appendonly no --dir "$work" >/dev/null &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.1; done
url="redis://127.0.0.1:$port/"
printf '%-6s %8s %8s %8s %6s\n' round items paths wall load
for r in $(seq "$rounds"); do
    start=$(date +%s.%N)
    for i in $(seq "$workers"); do
        "$symex" run "$prog" --redis "$url" --campaign "c$r" --out "$work/c$r-w$i" --quiet &
    done
    wait $(jobs -p | grep -v "^$server\$") 2>/dev/null || true
    end=$(date +%s.%N)
    "$symex" campaign status --json --redis "$url" --campaign "c$r" | python3 -c "
import json, sys
v = json.load(sys.stdin)
print('%-6s %8d %8d %8.2f %6s' % ('$r', v['items']['done'], v['paths']['total'], $end - $start,
      open('/proc/loadavg').read().split()[0]))"
done
