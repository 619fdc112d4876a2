# Sourced by the bench scripts that measure the release build. `release_symex` builds it (unless SYMEX
# names a binary to measure instead) and sets `symex` to the binary cargo wrote: under CARGO_TARGET_DIR
# when that is set (relative to the repository root, as cargo reads it), else under target/.
# `release_dir` is that release folder (for other binaries of the same build, e.g. examples/lower).
# Measurements are of one thread (`--jobs` defaults to the core count) unless a script asks for more.
export SYMEX_JOBS="${SYMEX_JOBS:-1}"

release_dir() {
    local root dir
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    dir="${CARGO_TARGET_DIR:-target}"
    case "$dir" in /*) ;; *) dir="$root/$dir" ;; esac
    echo "$dir/release"
}

release_symex() {
    if [ -n "${SYMEX:-}" ]; then
        symex="$SYMEX"
    else
        (cd "$(dirname "${BASH_SOURCE[0]}")/.." && cargo build -q --release -p symex-cli)
        symex="$(release_dir)/symex"
    fi
    [ -x "$symex" ] || { echo "no symex binary at $symex" >&2; exit 2; }
}
