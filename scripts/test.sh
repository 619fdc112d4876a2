#!/usr/bin/env bash
# The whole test suite: formatting, lints, and every test of every crate.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace --no-fail-fast
# The manual renders (its commands and flag lists are checked by symex-cli's `manual` test above).
mdbook build docs
# Deterministic cost of fixed workloads (instructions, queries, paths, callgrind counts) against the
# committed baseline tests/perf/baseline.txt: more than 10 % worse fails.
python3 scripts/perf-guard.py
# symex its's bounds re-checked by an interpreter that shares nothing with symex (bench/its_check.py)
SYMEX=target/debug/symex python3 bench/its_check.py --runs 10 examples/its/*.koat
if [ -d ../shared/benchmarks/tpdb/Complexity_ITS ]; then
    SYMEX=target/debug/symex python3 bench/its_check.py --runs 10 \
        $(find ../shared/benchmarks/tpdb/Complexity_ITS -name '*.koat' | sort | awk 'NR % 40 == 0')
else
    echo "skipping bench/its_check.py: ../shared/benchmarks is absent"
fi
