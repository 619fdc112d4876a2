#!/usr/bin/env bash
# Installs what a fresh machine of this kind lacks: clang-14 (the C front-end) and csmith
# (differential tests). llvm-14-dev and libz3-dev are already there.
set -euo pipefail
missing=()
command -v clang-14 >/dev/null 2>&1 || missing+=(clang-14)
command -v csmith >/dev/null 2>&1 || missing+=(csmith)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing ${missing[*]} ..." >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
fi
