#!/usr/bin/env bash
# The README's first command: installs what is missing, builds symex, and runs it on a bundled example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
cargo build -q -p symex-cli
symex=target/debug/symex
run() {
    echo "\$ symex $*"
    local st=0
    "$symex" "$@" || st=$?
    echo "(exit status $st)"
    echo
}
# A test whose input is fine: the program runs to its end (exit status 0).
run replay examples/demo.c examples/demo.ok.json
# A test that triggers the off-by-one write: an out-of-bounds bug with file, line and function (status 1).
run replay examples/demo.c examples/demo.test.json
run replay examples/demo.c examples/demo.test.json --json
# The same test on the native build (clang-14 with AddressSanitizer): the oracle that is not symex.
run replay --native examples/demo.c examples/demo.test.json
# Symbolic execution: SAGE's top() explored path by path — 16 paths, 5 of which abort; one test per path.
run run examples/run/top.c --out symex-out-demo --out-overwrite --validate-tests
