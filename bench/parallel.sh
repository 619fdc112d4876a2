#!/usr/bin/env bash
# Speed-up of `symex run --jobs N` over one thread on the exploration benchmarks (../shared/bench), and
# the check that both explored the same paths (--paths-out). Prints, per program and job count: paths,
# wall and CPU seconds, peak resident memory (whole process, and per thread), and the speed-up over
# --jobs 1; first the machine's core count and load average, since the cores may be shared.
# usage: bench/parallel.sh [JOBS] [PROGRAMS...]   (default: 2, and psort parray ptokens)
# TESTS=errors writes only the errors' tests (ptokens' 271,453 test files can cost more system time than
# the exploration); TMPDIR=/dev/shm keeps the outputs off the disk.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/shared.sh
require_shared bench
jobs=${1:-2}
shift || true
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(psort parray ptokens)
source bench/release.sh
release_symex
echo "cores: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
printf '%-10s %5s %8s %9s %9s %9s %12s %8s %s\n' program jobs paths wall_s cpu_s rss_mib rss/thread speedup same_paths
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "${programs[@]}"; do
    for j in 1 "$jobs"; do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time-$j" "$symex" run "$shared/bench/$p.c" \
            --jobs "$j" --tests "${TESTS:-all}" --quiet --json --out "$tmp/out-$p-$j" --paths-out "$tmp/paths-$j" >"$tmp/r-$j.json" || true
    done
    python3 - "$tmp" "$p" "$jobs" <<'PY'
import json, sys, filecmp
tmp, prog, jobs = sys.argv[1], sys.argv[2], sys.argv[3]
wall1 = None
for j in ["1", jobs]:
    r = json.load(open(f"{tmp}/r-{j}.json"))
    # The last line: GNU time writes "Command exited with non-zero status N" first when the program
    # found errors (exit status 1).
    wall, user, sys_, rss = open(f"{tmp}/time-{j}").read().splitlines()[-1].split()
    wall, cpu, rss = float(wall), float(user) + float(sys_), int(rss) / 1024
    p = r["paths"]
    wall1 = wall1 or wall
    same = filecmp.cmp(f"{tmp}/paths-1", f"{tmp}/paths-{j}", shallow=False)
    print("%-10s %5s %8d %9.1f %9.1f %9.0f %12.0f %8.2f %s" % (prog, j, p["completed"] + p["errors"] + p["cut"],
          wall, cpu, rss, rss / int(j), wall1 / wall, same))
PY
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
