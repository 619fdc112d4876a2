#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: clang-14 (the C front-end), csmith
# (differential tests), and for `symex replay --native` clang-14's sanitizer runtimes for x86_64 and i386
# (libclang-rt-14-dev) and the 32-bit C library and libgcc (libc6-dev-i386, gcc-multilib).
# llvm-14-dev and libz3-dev are already there.
set -euo pipefail
missing=()
command -v clang-14 >/dev/null 2>&1 || missing+=(clang-14)
command -v csmith >/dev/null 2>&1 || missing+=(csmith)
ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.asan-i386.a >/dev/null 2>&1 || missing+=(libclang-rt-14-dev)
[ -e /usr/include/x86_64-linux-gnu/gnu/stubs-32.h ] || missing+=(libc6-dev-i386)
dpkg -s gcc-multilib >/dev/null 2>&1 || missing+=(gcc-multilib)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing ${missing[*]} ..." >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
