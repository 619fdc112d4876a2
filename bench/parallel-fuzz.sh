#!/usr/bin/env bash
# Speed-up of `symex fuzz --jobs N` over one worker on the repository's fuzzing examples, and the check
# that both found the same crashes (kind and line) within the same run budget. Prints, per example and
# job count: runs, crashes, wall and CPU seconds (the median of REPS runs, default 3), peak resident
# memory (whole process, and per worker) and the speed-up; first the core count and load average.
# usage: bench/parallel-fuzz.sh [JOBS] [EXAMPLES...]   (default: 2, and magic checksum keywords hashtree)
# SYMEX selects the binary (see bench/release.sh); MAX_RUNS is the run budget (default 300).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${1:-2}
shift || true
examples=("$@")
[ ${#examples[@]} -eq 0 ] && examples=(magic checksum keywords hashtree)
source bench/release.sh
release_symex
reps=${REPS:-3}
echo "cores: $(nproc); load average at start: $(cut -d' ' -f1-3 /proc/loadavg); commit $(git rev-parse --short HEAD)"
printf '%-10s %5s %6s %8s %9s %9s %9s %12s %8s %s\n' example jobs runs crashes wall_s cpu_s rss_mib rss/worker speedup same_crashes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for e in "${examples[@]}"; do
    for j in 1 "$jobs"; do
        for r in $(seq "$reps"); do
            rm -rf "$tmp/out"
            /usr/bin/time -f '%e %U %S %M' -o "$tmp/time-$j-$r" "$symex" fuzz "examples/fuzz/$e.c" --stdin \
                --seed "examples/fuzz/$e.seed" --max-runs "${MAX_RUNS:-300}" --jobs "$j" --json \
                --out "$tmp/out" >"$tmp/r-$j-$r.json" || true
        done
    done
    python3 - "$tmp" "$e" "$jobs" "$reps" <<'PY'
import json, statistics, sys
tmp, example, jobs, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def crashes(r):
    return sorted({(c["kind"], c["line"]) for c in r["crashes"]})
wall1 = crashes1 = None
for j in ["1", jobs]:
    rs = [json.load(open(f"{tmp}/r-{j}-{k}.json")) for k in range(1, reps + 1)]
    # The last line: GNU time writes "Command exited with non-zero status N" first on a crash.
    ts = [open(f"{tmp}/time-{j}-{k}").read().splitlines()[-1].split() for k in range(1, reps + 1)]
    wall = statistics.median(float(t[0]) for t in ts)
    cpu = statistics.median(float(t[1]) + float(t[2]) for t in ts)
    rss = max(int(t[3]) for t in ts) / 1024
    found = [crashes(r) for r in rs]
    wall1 = wall1 or wall
    crashes1 = crashes1 or found[0]
    same = all(f == crashes1 for f in found)
    runs = "/".join(sorted({str(r["runs"]) for r in rs}))
    print("%-10s %5s %6s %8d %9.2f %9.2f %9.0f %12.0f %8.2f %s" % (example, j, runs, len(found[0]), wall,
          cpu, rss, rss / int(j), wall1 / wall, same))
PY
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
