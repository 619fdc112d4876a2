#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: clang-14 (the C front-end), csmith
# (differential tests), the i386 headers and libraries for `-m32` (SV-COMP's ILP32 tasks,
# `symex check --data-model ILP32`, and the native 32-bit builds the tests compare with:
# libc6-dev-i386, gcc-multilib), and for `symex replay --native` clang-14's sanitizer runtimes for
# x86_64 and i386 (libclang-rt-14-dev).
# llvm-14-dev and libz3-dev are already there. Python's z3-solver package serves bench/its_check.py,
# the interpreter that re-checks `symex its` bounds independently of symex. mdbook builds the manual (docs/);
# Debian has no package of it, so cargo builds it once, without the local server (`serve`, `watch`).
set -euo pipefail
missing=()
command -v clang-14 >/dev/null 2>&1 || missing+=(clang-14)
command -v csmith >/dev/null 2>&1 || missing+=(csmith)
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-i386.a >/dev/null 2>&1 || missing+=(libclang-rt-14-dev)
for pkg in libc6-dev-i386 gcc-multilib; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
# run.stats is an SQLite database (KLEE's format, which klee-stats reads): rusqlite links the system library.
dpkg -s libsqlite3-dev >/dev/null 2>&1 || missing+=(libsqlite3-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# redis-server: the server of the campaign tests (symex-cli's campaign_cli; `symex run --redis`).
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
# valgrind's callgrind counts the machine instructions of the performance guard (scripts/perf-guard.py).
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing ${missing[*]} ..." >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
python3 -c 'import z3' >/dev/null 2>&1 || python3 -m pip install -q z3-solver >&2
# scripts/svcomp.py reads SV-COMP's task-definition files with PyYAML (a parser that is not symex's).
python3 -c 'import yaml' >/dev/null 2>&1 || python3 -m pip install -q pyyaml >&2
if ! command -v mdbook >/dev/null 2>&1; then
    echo "installing mdbook ..." >&2
    cargo install -q mdbook --locked --no-default-features --features search >&2
fi
